package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobInfo;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tiny batches inline in consensus, on the real stack with the default inline limit (issue 14): a
 * quiet shard (20 updates per 1 s interval, paced) seals without writing a single blob, across a
 * schema change; a burst above the limit writes blobs as before; the snapshot over the mix equals
 * the model read back from the corrections topic.
 */
@ExtendWith(LocalStackExtension.class)
class InlineBatchesIT {
    private static final long INTERVAL_MS = 1000;
    private static final int PER_INTERVAL = 20;

    @Test
    void shouldSealAQuietShardWithoutBlobsAndABurstWithThem(LocalStack stack) throws Exception {
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(INTERVAL_MS));
        try (SinkHarness sink = new SinkHarness(stack, 2, overrides);
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(2);
            String subject = sink.rowSubject;
            int v1 = sink.registry.latest(subject).id();
            String prefix = sink.correctionsTopic() + "/";

            // quiet: 8 intervals of 20 updates (inserts, some retracted later), a seal after each
            long time = 0;
            int id = 0;
            for (int interval = 0; interval < 8; interval++, time += INTERVAL_MS) {
                if (interval == 4) {
                    sink.registry.register(subject, SchemaEvolutionIT.V2);
                }
                for (int i = 0; i < PER_INTERVAL; i++, id++) {
                    GenericRecord row = interval < 4 ? v1Row(id) : v2Row(id, "eu");
                    producer.update(Integer.toString(id), row, time + i * 40, 1);
                }
                if (interval >= 4) {
                    // a v2 retraction of a row inserted under v1: they meet in the snapshot
                    producer.update(Integer.toString(interval), v2Row(interval, "none"), time + 900, -1);
                }
                producer.progress(time + INTERVAL_MS);
                producer.flush();
                sink.awaitUpper(time + INTERVAL_MS);
            }
            ShardState quiet = sink.state();
            long seals = quiet.seqno();
            assertTrue(seals >= 4, "seals of the quiet phase: " + seals);
            assertEquals(List.of(), sink.blobs.list(prefix).stream().map(BlobInfo::key).toList(),
                "a quiet shard writes no part blob");
            assertEquals(0, app.metrics().partsWritten());
            Set<Integer> inlineIds = new HashSet<>();
            for (Batch batch : quiet.batches()) {
                for (Part part : batch.getParts()) {
                    assertTrue(part.getInline() != null, "every part is inline: " + part.getKey());
                    inlineIds.add(part.getSchemaId());
                }
            }
            assertEquals(2, inlineIds.size(), "inline parts of both versions: " + inlineIds + " (v1 " + v1 + ")");
            assertEquals(TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry, quiet.upper()),
                sink.snapshot(quiet));

            // a burst far above the limit in one interval: its parts are blobs
            for (int i = 0; i < 5_000; i++) {
                producer.update("burst-" + i, v2Row(100_000 + i, "burst"), time + i % 1000, 1 + i % 3);
            }
            for (int i = 10; i < 40; i++) {
                producer.update(Integer.toString(i), v1Row(i), time + 500, -1);
            }
            producer.progress(time + INTERVAL_MS);
            producer.flush();
            ShardState mixed = sink.awaitUpper(time + INTERVAL_MS);
            assertTrue(app.metrics().partsWritten() > 0, "the burst wrote parts");
            assertTrue(!sink.blobs.list(prefix).isEmpty(), "the burst's parts are blobs");

            Map<String, Long> model = TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry,
                mixed.upper());
            assertEquals(model, sink.snapshot(mixed), "inline and blob batches read together");
            assertEquals(5_000 + 8 * PER_INTERVAL - 30 - 4, model.size());
            sink.assertEveryAppendIsAnExactCover();
            assertEquals(0, sink.orphanedBatches());
        }
    }

    private static GenericRecord v1Row(long id) {
        return SchemaEvolutionIT.v1Row(id);
    }

    private static GenericRecord v2Row(long id, String region) {
        return SchemaEvolutionIT.v2Row(id, region);
    }
}
