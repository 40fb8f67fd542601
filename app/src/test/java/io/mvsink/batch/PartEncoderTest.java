package io.mvsink.batch;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.produce.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryData;
import org.junit.jupiter.api.Test;

class PartEncoderTest {
    private static final Map<String, String> META = Map.of(
        PartEncoder.META_SCHEMA_ID, "7",
        PartEncoder.META_SHARD, "orders",
        PartEncoder.META_LOWER, "1000",
        PartEncoder.META_UPPER, "2000",
        PartEncoder.META_BATCH, "b-1");

    private final List<GenericRecord> rows = new ArrayList<>();
    private final List<Update> updates = new ArrayList<>();

    @Test
    void shouldRoundTripRowsTimesAndDiffs() {
        add(row(1, "books", 10), 1000, 1);
        add(row(2, "toys", -3), 1000, -1);
        add(row(Long.MIN_VALUE, "", Long.MAX_VALUE), 1999, Long.MIN_VALUE);

        for (String codec : List.of("null", "deflate", "snappy", "zstandard")) {
            List<PartEncoder.EncodedPart> parts = new PartEncoder(codec, 1 << 20).encode(Workload.ROW_SCHEMA, META, updates);

            assertEquals(1, parts.size(), codec);
            assertEquals(3, parts.get(0).updates(), codec);
            assertEquals(TestUpdates.expected(rows, updates), TestUpdates.read(parts.get(0).bytes()), codec);
        }
    }

    @Test
    void shouldCarryTheMetadataAndTheUpdateSchema() {
        add(row(1, "books", 10), 1000, 1);

        byte[] part = new PartEncoder("deflate", 1 << 20).encode(Workload.ROW_SCHEMA, META, updates).get(0).bytes();

        META.forEach((key, value) -> assertEquals(value, TestUpdates.meta(part, key), key));
        assertEquals(PartEncoder.updateSchema(Workload.ROW_SCHEMA), TestUpdates.schema(part));
    }

    @Test
    void shouldCutAPartOnceItHoldsTheTargetBytes() {
        for (int i = 0; i < 200; i++) {
            add(row(i, "category-" + "x".repeat(i % 17), i * 31L), 1000 + i, i % 3 == 0 ? -1 : 1 + i);
        }
        long target = 300;

        List<PartEncoder.EncodedPart> parts = new PartEncoder("null", target).encode(Workload.ROW_SCHEMA, META, updates);

        assertTrue(parts.size() > 5, "200 updates of ~20 bytes with a 300-byte target: " + parts.size() + " parts");
        int next = 0;
        List<TestUpdates.ReadUpdate> read = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            PartEncoder.EncodedPart part = parts.get(p);
            List<Update> held = updates.subList(next, next + (int) part.updates());
            long bytes = held.stream().mapToLong(PartEncoderTest::encodedSize).sum();
            long withoutLast = bytes - encodedSize(held.get(held.size() - 1));
            assertTrue(withoutLast < target, "part " + p + " was not cut at the first update that reached the target");
            if (p < parts.size() - 1) {
                assertTrue(bytes >= target, "part " + p + " was cut below the target: " + bytes);
            }
            read.addAll(TestUpdates.read(part.bytes()));
            next += (int) part.updates();
        }
        assertEquals(updates.size(), next);
        assertEquals(TestUpdates.expected(rows, updates), read);
    }

    @Test
    void shouldWriteNoPartForNoUpdates() {
        assertEquals(List.of(), new PartEncoder("deflate", 1024).encode(Workload.ROW_SCHEMA, META, List.of()));
    }

    @Test
    void shouldRefuseMetadataWithoutTheSchemaId() {
        add(row(1, "books", 10), 1000, 1);
        Map<String, String> noId = Map.of(PartEncoder.META_SHARD, "orders");

        assertThrows(IllegalArgumentException.class,
            () -> new PartEncoder("deflate", 1024).encode(Workload.ROW_SCHEMA, noId, updates));
    }

    private void add(GenericRecord row, long time, long diff) {
        rows.add(row);
        updates.add(update(7, row, time, diff));
    }

    /** Bytes of one encoded update: the row's binary, then time and diff as zig-zag varints. */
    private static long encodedSize(Update u) {
        byte[] scratch = new byte[10];
        return u.row().length + BinaryData.encodeLong(u.time(), scratch, 0) + BinaryData.encodeLong(u.diff(), scratch, 0);
    }
}
