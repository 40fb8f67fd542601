package io.mvsink.read;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.TestUpdates.ReadUpdate;
import io.mvsink.produce.Workload;
import io.mvsink.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class PartReaderTest {
    private static final Schema V2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount")
        .name("region").type().stringType().stringDefault("none").endRecord();
    private static final Schema UNRELATED = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredString("id").endRecord();

    /** A part of v1 rows, written with schema id 1. */
    private final byte[] part = new PartEncoder("deflate", 1 << 20).encode(Workload.ROW_SCHEMA,
        Map.of(PartEncoder.META_SCHEMA_ID, "1"),
        List.of(update(1, row(1, "books", 5), 10, 1), update(1, row(2, "toys", 7), 20, -2))).get(0).bytes();

    @Test
    void shouldReadRowsOfAnOlderVersionIntoTheTargetWithItsDefaults() {
        List<ReadUpdate> read = new ArrayList<>();
        new PartReader(new SubjectVersion("orders-value", 2, V2))
            .read("orders/p", part, 1, (row, time, diff) -> read.add(new ReadUpdate(copy(row), time, diff)));

        assertEquals(List.of(new ReadUpdate(v2(1, "books", 5), 10, 1), new ReadUpdate(v2(2, "toys", 7), 20, -2)), read);
    }

    @Test
    void shouldRefuseAPartWhoseMetadataNamesAnotherSchemaId() {
        PartReader reader = new PartReader(new SubjectVersion("orders-value", 1, Workload.ROW_SCHEMA));

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> reader.read("orders/p", part, 3, (row, time, diff) -> { }));

        assertEquals("part orders/p carries schema id 1 but its batch says 3", e.getMessage());
    }

    @Test
    void shouldNameThePartAndBothIdsWhenTheTargetCannotReadTheWriter() {
        PartReader reader = new PartReader(new SubjectVersion("orders-value", 7, UNRELATED));

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> reader.read("orders/p", part, 1, (row, time, diff) -> { }));

        assertTrue(e.getMessage().startsWith("part orders/p was written with schema id 1, which the target schema "
            + "(id 7 of subject orders-value) cannot read"), e.getMessage());
    }

    private static GenericRecord v2(long id, String category, long amount) {
        GenericRecord row = new GenericData.Record(V2);
        row.put("id", id);
        row.put("category", category);
        row.put("amount", amount);
        row.put("region", "none");
        return row;
    }

    private static GenericRecord copy(GenericRecord row) {
        return GenericData.get().deepCopy(row.getSchema(), row);
    }
}
