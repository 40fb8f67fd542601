package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A report and a seal ask for their own commits: with a commit interval of five minutes the shard
 * still seals within seconds. (Before they did, the report waited in its task's open transaction
 * until the interval ran out.)
 */
@ExtendWith(LocalStackExtension.class)
class CommitOnDemandIT {

    @Test
    void shouldSealWithinSecondsWhateverTheCommitInterval(LocalStack stack) throws Exception {
        Properties overrides = new Properties();
        overrides.put("streams.commit.interval.ms", "300000");
        overrides.put("streams.producer.transaction.timeout.ms", "600000");
        overrides.put("gc.grace.ms", "3000000");
        try (SinkHarness sink = new SinkHarness(stack, 2, overrides);
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(2);
            Workload workload = new Workload(21, 50, 0.2);
            long t0 = 1_000_000;
            for (int i = 0; i < 200; i++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), c.row(), t0 + i * 10, c.diff());
            }
            long first = t0 + 2_000;
            producer.progress(first);
            producer.flush();
            await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500))
                .until(() -> sink.state().upper() >= first);

            for (int i = 0; i < 200; i++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), c.row(), first + i * 10, c.diff());
            }
            long second = first + 3_000;
            producer.progress(second);
            producer.flush();
            await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500))
                .until(() -> sink.state().upper() >= second);
            assertEquals(second, sink.state().upper());
            sink.assertSealedExactly(second);
        }
    }
}
