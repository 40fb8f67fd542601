package io.mvsink.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.avro.TaskProgress;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.read.PartReader;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * Stored bytes written by earlier schema versions (fixtures/*.bin, with the writer schema as
 * *.avsc beside them, made by {@link FixtureWriter}) must keep reading, with and without the
 * writer schema. Field values are checked literally, not against today's builders.
 */
class StoredFixturesTest {

    @Test
    void shouldReadStateDiffV1() throws IOException {
        for (StateDiff diff : readBoth("StateDiff-v1", Codecs.STATE_DIFF)) {
            assertEquals("orders.v1", diff.getShard());
            assertEquals(42L, diff.getSeqno());
            assertEquals(1_000L, diff.getLower());
            assertEquals(3_000L, diff.getUpper());
            assertEquals(4, diff.getPartitionCount());
            assertEquals(List.of("old-batch-1"), diff.getRemovedBatchIds());
            assertEquals(List.of("orders.v1/garbage-0000.avro"), diff.getGarbageBlobs());
            assertEquals(1_700_000_000_456L, diff.getAppendedAtMs());
            assertEquals(1, diff.getAdded().size());
            assertBatchV1(diff.getAdded().get(0));
        }
    }

    @Test
    void shouldReadBatchReportV1() throws IOException {
        for (BatchReport report : readBoth("BatchReport-v1", Codecs.REPORT)) {
            assertEquals("0_3", report.getReporter());
            assertBatchV1(report.getBatch());
        }
    }

    @Test
    void shouldReadBatchReportV2() throws IOException {
        for (BatchReport report : readBoth("BatchReport-v2", Codecs.REPORT)) {
            assertEquals("0_3", report.getReporter());
            assertEquals(1_700_000_000_100L, report.getFirstWriteAtMs());
            assertBatchV1(report.getBatch());
        }
        assertEquals(0L, Codecs.REPORT.decode(bytes("BatchReport-v1.bin")).getFirstWriteAtMs(),
            "a v1 report has no first write time");
    }

    @Test
    void shouldReadTaskProgressV1() throws IOException {
        for (TaskProgress progress : readBoth("TaskProgress-v1", Codecs.TASK_PROGRESS)) {
            assertEquals(Long.MAX_VALUE, progress.getFrontier());
            assertEquals(-1L, progress.getReportedUpTo());
            assertEquals(5L, progress.getLateUpdates());
        }
    }

    @Test
    void shouldReadAppenderStateV1() throws IOException {
        for (AppenderState state : readBoth("AppenderState-v1", Codecs.APPENDER_STATE)) {
            assertEquals("orders.v1", state.getShard());
            assertEquals(3_000L, state.getUpper());
            assertEquals(42L, state.getSeqno());
            assertEquals(4, state.getPartitionCount());
            assertEquals(List.of("orders.v1/garbage-0000.avro"), state.getPendingGarbage());
        }
    }

    @Test
    void shouldReadStateDiffV2() throws IOException {
        for (StateDiff diff : readBoth("StateDiff-v2", Codecs.STATE_DIFF)) {
            assertEquals(42L, diff.getSeqno());
            assertEquals(2_000L, diff.getSince());
            assertBatchV1(diff.getAdded().get(0));
        }
        assertEquals(0L, Codecs.STATE_DIFF.decode(bytes("StateDiff-v1.bin")).getSince(), "v1 diffs have since 0");
    }

    @Test
    void shouldReadAppenderStateV2() throws IOException {
        for (AppenderState state : readBoth("AppenderState-v2", Codecs.APPENDER_STATE)) {
            assertEquals(42L, state.getSeqno());
            assertEquals(2_000L, state.getSince());
            assertEquals(40L, state.getRollupSeqno());
        }
        AppenderState v1 = Codecs.APPENDER_STATE.decode(bytes("AppenderState-v1.bin"));
        assertEquals(0L, v1.getRollupSeqno(), "a v1 state has no rollup yet");
        assertEquals(3_000L, v1.getUpper());
    }

    @Test
    void shouldReadStateRollupV1() throws IOException {
        for (StateRollup rollup : readBoth("StateRollup-v1", Codecs.STATE_ROLLUP)) {
            assertEquals("orders.v1", rollup.getShard());
            assertEquals(42L, rollup.getSeqno());
            assertEquals(3_000L, rollup.getUpper());
            assertEquals(2_000L, rollup.getSince());
            assertEquals(4, rollup.getPartitionCount());
            assertBatchV1(rollup.getBatches().get(0));
            assertEquals("orders.v1/old-0000.avro", rollup.getRetired().get(0).getKey());
            assertEquals(1_700_000_000_789L, rollup.getRetired().get(0).getRetiredAtMs());
            assertEquals(1_700_000_001_000L, rollup.getRolledUpAtMs());
        }
    }

    @Test
    void shouldReadTheLocationOfStateDiffV3AppenderStateV3AndStateRollupV2AndNoneFromOlderVersions() throws IOException {
        for (StateDiff diff : readBoth("StateDiff-v3", Codecs.STATE_DIFF)) {
            assertEquals("devstoreaccount1/orders", diff.getLocation());
            assertEquals(2_000L, diff.getSince());
            assertBatchV1(diff.getAdded().get(0));
        }
        for (AppenderState state : readBoth("AppenderState-v3", Codecs.APPENDER_STATE)) {
            assertEquals("devstoreaccount1/orders", state.getLocation());
            assertEquals(40L, state.getRollupSeqno());
        }
        for (StateRollup rollup : readBoth("StateRollup-v2", Codecs.STATE_ROLLUP)) {
            assertEquals("devstoreaccount1/orders", rollup.getLocation());
            assertEquals(1_700_000_001_000L, rollup.getRolledUpAtMs());
            assertBatchV1(rollup.getBatches().get(0));
        }
        assertEquals("", Codecs.STATE_DIFF.decode(bytes("StateDiff-v2.bin")).getLocation(), "older diffs: unknown");
        assertEquals("", Codecs.APPENDER_STATE.decode(bytes("AppenderState-v2.bin")).getLocation());
        assertEquals("", Codecs.STATE_ROLLUP.decode(bytes("StateRollup-v1.bin")).getLocation());
    }

    @Test
    void shouldEncodeTodayAsTheLatestFixturesWhileTheSchemasAreUnchanged() throws IOException {
        // When a schema gains a field this fails: add fixtures of the next version and keep the old (the reads above).
        assertArrayEquals(bytes("StateDiff-v4.bin"), Codecs.STATE_DIFF.encode(StoredValues.stateDiff()));
        assertArrayEquals(bytes("BatchReport-v3.bin"), Codecs.REPORT.encode(StoredValues.report()));
        assertArrayEquals(bytes("TaskProgress-v1.bin"), Codecs.TASK_PROGRESS.encode(StoredValues.taskProgress()));
        assertArrayEquals(bytes("AppenderState-v3.bin"), Codecs.APPENDER_STATE.encode(StoredValues.appenderState()));
        assertArrayEquals(bytes("StateRollup-v3.bin"), Codecs.STATE_ROLLUP.encode(StoredValues.stateRollup()));
        assertArrayEquals(bytes("Batch-v2.bin"), Codecs.BATCH.encode(StoredValues.batch()));
    }

    @Test
    void shouldReadTheInlinePartOfFramedVersionsAndNoneFromUnframedOnes() throws IOException {
        for (StateDiff diff : readBoth("StateDiff-v4", Codecs.STATE_DIFF)) {
            assertEquals("devstoreaccount1/orders", diff.getLocation());
            assertBatchV2(diff.getAdded().get(0));
        }
        for (BatchReport report : readBoth("BatchReport-v3", Codecs.REPORT)) {
            assertEquals(1_700_000_000_100L, report.getFirstWriteAtMs());
            assertBatchV2(report.getBatch());
        }
        for (StateRollup rollup : readBoth("StateRollup-v3", Codecs.STATE_ROLLUP)) {
            assertEquals(1_700_000_001_000L, rollup.getRolledUpAtMs());
            assertBatchV2(rollup.getBatches().get(0));
        }
        for (Batch batch : readBoth("Batch-v2", Codecs.BATCH)) {
            assertBatchV2(batch);
        }
        for (Batch batch : readBoth("Batch-v1", Codecs.BATCH)) {
            assertBatchV1(batch);
            batch.getParts().forEach(p -> assertNull(p.getInline(), "parts before v2 are blobs"));
        }
        assertEquals(SpecificCodec.FRAME_MARKER, bytes("StateDiff-v4.bin")[0], "framed");
        assertNotEquals(SpecificCodec.FRAME_MARKER, bytes("StateDiff-v3.bin")[0], "unframed");
    }

    @Test
    void shouldReadTheInlinePartOfADiffWrittenBeforeFingerprintsWithoutACheck() throws IOException {
        // an inline part's key was "" before it carried its writer schema's fingerprint: nothing to check, read as then
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        for (int id = 1; id < 8; id++) {
            registry.register("other-" + id, SchemaBuilder.record("Other" + id).fields().requiredInt("f").endRecord());
        }
        Schema row = SchemaBuilder.record("Row").fields().requiredString("s").requiredLong("n").endRecord();
        assertEquals(8, registry.register("orders-value", row), "the fixture's inline part names schema id 8");
        Batch batch = Codecs.STATE_DIFF.decode(bytes("StateDiff-v4.bin")).getAdded().get(0);
        Part inline = batch.getParts().get(2);
        assertEquals("", inline.getKey());
        List<String> read = new ArrayList<>();

        new PartReader(registry.latest("orders-value")).read(inline, batch.getBatchId(), new InMemoryBlobStore(), registry,
            (r, time, diff) -> read.add(r + " " + time + " " + diff));

        assertEquals(List.of("{\"s\": \"a\", \"n\": 3} -2 0"), read);
    }

    /** The batch of {@link StoredValues#batch()} since Part.inline: v1's two blob parts and an inline one. */
    private static void assertBatchV2(Batch batch) {
        assertEquals("6f1c1a4e-0000-4000-8000-000000000001", batch.getBatchId());
        assertEquals(3, batch.getParts().size());
        assertEquals("orders.v1/p-0001.avro", batch.getParts().get(1).getKey());
        assertNull(batch.getParts().get(1).getInline());
        Part inline = batch.getParts().get(2);
        assertEquals("", inline.getKey());
        assertEquals(8, inline.getSchemaId());
        assertEquals(1L, inline.getUpdates());
        assertEquals(ByteBuffer.wrap(new byte[] {2, 'a', 6, 3, 0}), inline.getInline());
        assertEquals(4L, batch.getUpdates());
        assertEquals(581L, batch.getBytes());
        assertEquals(1_700_000_000_123L, batch.getClosedAtMs());
    }

    private static void assertBatchV1(Batch batch) {
        assertEquals("6f1c1a4e-0000-4000-8000-000000000001", batch.getBatchId());
        assertEquals("orders.v1", batch.getShard());
        assertEquals(1_000L, batch.getLower());
        assertEquals(3_000L, batch.getUpper());
        assertEquals(List.of(7, 8), batch.getSchemaIds());
        assertEquals(2, batch.getContributions().size());
        assertEquals(3, batch.getContributions().get(1).getPartition());
        assertEquals(2_000L, batch.getContributions().get(1).getUpper());
        assertEquals(0L, batch.getContributions().get(1).getUpdates());
        assertEquals("orders.v1/p-0001.avro", batch.getParts().get(1).getKey());
        assertEquals(8, batch.getParts().get(1).getSchemaId());
        assertEquals(64L, batch.getParts().get(1).getBytes());
        assertEquals(1L, batch.getParts().get(1).getUpdates());
        assertEquals(3L, batch.getUpdates());
        assertEquals(576L, batch.getBytes());
        assertEquals(1_700_000_000_123L, batch.getClosedAtMs());
    }

    /** The fixture decoded as this version's bytes and as bytes of its stored writer schema. */
    private static <T extends SpecificRecord> List<T> readBoth(String name, SpecificCodec<T> codec) throws IOException {
        byte[] bytes = bytes(name + ".bin");
        Schema writer = new Schema.Parser().parse(new String(bytes(name + ".avsc"), StandardCharsets.UTF_8));
        return List.of(codec.decode(bytes), codec.decode(bytes, writer));
    }

    private static byte[] bytes(String fixture) throws IOException {
        try (InputStream in = StoredFixturesTest.class.getResourceAsStream("/fixtures/" + fixture)) {
            assertNotNull(in, "missing fixture " + fixture);
            return in.readAllBytes();
        }
    }
}
