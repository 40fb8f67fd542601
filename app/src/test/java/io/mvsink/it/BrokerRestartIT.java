package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.local.BrokerProcess;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Kafka broker process dies mid-run (SIGKILL), later is stopped gracefully, and each time
 * comes back after a while on the same address; the producer goes on sending throughout. The
 * app, never restarted, resumes by itself and seals exactly what reached the topic. The broker
 * is a process of this test's own, so that its outages touch no other test.
 */
@ExtendWith(LocalStackExtension.class)
class BrokerRestartIT {
    private static final long OUTAGE_MS = 6_000;

    @Test
    void shouldResumeByItselfAfterTheBrokerIsKilledAndAfterItIsStopped(LocalStack shared) throws Exception {
        try (BrokerProcess broker = BrokerProcess.start()) {
            LocalStack stack = broker.over(shared);
            try (SinkHarness sink = new SinkHarness(stack, 4, new Properties());
                 CorrectionProducer producer = sink.producer()) {
                MvsinkApp app = sink.startApp(2);
                WorkloadRunner runner = new WorkloadRunner(producer, new Workload(41, 300, 0.35), Time.SYSTEM);
                runner.run(500, 3_000, 1_500, 100, n -> { });
                long sealedBefore = sink.awaitUpper(runner.sealThrough(500)).upper();

                long start = System.nanoTime();
                outage(runner, broker::kill, broker);
                long afterKill = sink.awaitUpper(runner.sealThrough(500)).upper();
                System.out.printf("broker killed for %d ms: sealed again %d ms after it went down%n", OUTAGE_MS,
                    (System.nanoTime() - start) / 1_000_000 - 2_000);
                assertTrue(afterKill > sealedBefore, "sealing resumed after the broker was killed");

                start = System.nanoTime();
                outage(runner, broker::stop, broker);
                sink.awaitUpper(runner.sealThrough(500));
                System.out.printf("broker stopped for %d ms: sealed again %d ms after it went down%n", OUTAGE_MS,
                    (System.nanoTime() - start) / 1_000_000 - 2_000);
                runner.run(500, 2_000, 1_000, 100, n -> { });
                sink.assertSealedExactly(runner.sealThrough(500));
                assertEquals(KafkaStreams.State.RUNNING, app.state(), "the same app, never restarted");
            }
        }
    }

    /** Takes the broker down with {@code down} while updates keep coming, and brings it back. */
    private static void outage(WorkloadRunner runner, Runnable down, BrokerProcess broker) throws Exception {
        CompletableFuture<Long> producing = CompletableFuture.supplyAsync(
            () -> runner.run(300, OUTAGE_MS + 6_000, 10_000, 100, n -> { }));
        Thread.sleep(2_000);
        down.run();
        Thread.sleep(OUTAGE_MS);
        broker.restart();
        producing.get(120, TimeUnit.SECONDS);
    }
}
