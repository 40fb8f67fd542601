package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole path on a real broker, registry and Azurite, in coalescing.mode=none. */
@ExtendWith(LocalStackExtension.class)
class EndToEndIT {

    @Test
    void shouldLandARandomWorkloadWithRetractionsExactly(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 4, new Properties());
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(11, 300, 0.35), Time.SYSTEM);
            long sent = runner.run(1500, 8_000, 10_000, 100, n -> { });
            Map<String, Long> model = sink.assertSealedExactly(runner.sealThrough(500));
            assertTrue(sent > 1000, "the workload ran");
            assertFalse(model.isEmpty());
        }
    }

    @Test
    void shouldContinueExactlyAfterTheAppIsReplacedMidStream(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 4, new Properties());
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp first = sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(12, 300, 0.35), Time.SYSTEM);
            runner.run(1500, 4_000, 5_000, 100, n -> { });
            first.close(Duration.ofSeconds(30));
            runner.run(1500, 2_000, 2_500, 100, n -> { });
            sink.startApp(2);
            runner.run(1500, 3_000, 4_000, 100, n -> { });
            sink.assertSealedExactly(runner.sealThrough(500));
        }
    }

    @Test
    void shouldNeverSealPastAPartitionThatHoldsBackItsProgress(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 4, new Properties());
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(2);
            Workload workload = new Workload(13, 100, 0.2);
            long t0 = 1_000_000;
            for (int i = 0; i < 400; i++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), c.row(), t0 + i * 10, c.diff());
            }
            long held = t0 + 1_000;
            producer.progress(held);
            producer.flush();
            ShardState state = sink.awaitUpper(held);
            assertEquals(held, state.upper(), "sealed exactly up to the common frontier");

            // Partitions 1..3 move on, partition 0 does not: the upper must stay put.
            for (int p = 1; p < 4; p++) {
                progressTo(producer, p, t0 + 10_000);
            }
            producer.flush();
            await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                .until(() -> sink.state().upper() == held);

            progressTo(producer, 0, t0 + 10_000);
            producer.flush();
            sink.assertSealedExactly(t0 + 10_000);
        }
    }

    private static void progressTo(CorrectionProducer producer, int partition, long upper) {
        producer.progressOn(partition, upper);
    }
}
