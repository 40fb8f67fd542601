package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two shards (two apps) in one JVM share one batch coalescer but never a builder or a metric. */
@ExtendWith(LocalStackExtension.class)
class TwoShardsIT {

    @Test
    void shouldKeepTwoShardsApartInOneRegistry(LocalStack stack) throws Exception {
        try (SinkHarness a = new SinkHarness(stack, 4, new Properties());
             SinkHarness b = new SinkHarness(stack, 4, new Properties());
             BatchCoalescer shared = Wiring.batches(a.config(0), a.blobs, a.registry, Time.SYSTEM);
             CorrectionProducer producerA = a.producer();
             CorrectionProducer producerB = b.producer()) {
            MvsinkApp appA = a.startApp(4, shared);
            MvsinkApp appB = b.startApp(4, shared);
            WorkloadRunner runA = new WorkloadRunner(producerA, new Workload(61, 200, 0.3), Time.SYSTEM);
            WorkloadRunner runB = new WorkloadRunner(producerB, new Workload(62, 200, 0.3), Time.SYSTEM);
            for (int round = 0; round < 3; round++) {
                runA.run(1000, 1_500, 3_000, 100, n -> { });
                runB.run(500, 1_500, 1_500, 100, n -> { });
            }
            ShardState stateA = a.awaitUpper(runA.sealThrough(500));
            ShardState stateB = b.awaitUpper(runB.sealThrough(500));

            assertEquals(TopicModel.read(a.clientProps(), a.correctionsTopic(), a.registry, stateA.upper()), a.snapshot(stateA));
            assertEquals(TopicModel.read(b.clientProps(), b.correctionsTopic(), b.registry, stateB.upper()), b.snapshot(stateB));
            assertOnlyOwnBatches(a);
            assertOnlyOwnBatches(b);
            assertEquals(a.correctionsTopic(), appA.metrics().shard());
            assertEquals(b.correctionsTopic(), appB.metrics().shard());
            assertTrue(appA.metrics().updates() > 0 && appB.metrics().updates() > 0);
            assertNotEquals(appA.metrics().updates(), appB.metrics().updates(), "each shard counts its own updates");
            assertEquals(0, shared.orphanedBatches());
        }
    }

    private static void assertOnlyOwnBatches(SinkHarness sink) {
        for (StateDiff diff : ConsensusReader.diffs(sink.clientProps(), sink.name + "-consensus",
                sink.correctionsTopic(), Duration.ofSeconds(30))) {
            for (Batch batch : diff.getAdded()) {
                assertEquals(sink.correctionsTopic(), batch.getShard());
                // an inline part is no blob (key ""): it is the shard's by its batch
                batch.getParts().stream().filter(p -> p.getInline() == null)
                    .forEach(p -> assertTrue(p.getKey().startsWith(sink.correctionsTopic() + "/"), p.getKey()));
            }
        }
        sink.assertEveryAppendIsAnExactCover();
    }
}
