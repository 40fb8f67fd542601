package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two apps (application ids, hence consensus topics) on one corrections topic, one container and
 * one blob prefix, both with the blob GC on: a blue/green move or a staging copy. Each GC must
 * leave the other's parts alone (issue 12), so both shards still read exactly once each GC has run
 * twice after the grace of every part passed, and each GC still collects its own garbage.
 */
@ExtendWith(LocalStackExtension.class)
class SharedContainerGcIT {
    /** The least grace the overrides allow: 4 x (5 s transaction timeout + 0.2 s barrier + 0.25 s linger + 2 s). */
    private static final long GRACE_MS = 30_000;

    @Test
    void shouldNotDeleteTheOtherAppsPartsWhenTwoAppsShareATopicAndAContainer(LocalStack stack) throws Exception {
        try (SinkHarness blue = new SinkHarness(stack, 4, overrides());
             SinkHarness green = new SinkHarness(blue, overrides());
             CorrectionProducer producer = blue.producer()) {
            assertEquals(blue.config(0).blobPrefix(), green.config(0).blobPrefix(), "one prefix for both");
            MvsinkApp blueApp = blue.startApp(2);
            MvsinkApp greenApp = green.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(12, 300, 0.35), Time.SYSTEM);
            assertTrue(runner.run(2000, 3_000, 4_000, 100, n -> { }) > 1000, "the workload ran");
            long upper = runner.sealThrough(500);
            blue.awaitUpper(upper);
            green.awaitUpper(upper);
            String prefix = blue.config(0).blobPrefix();
            String blueLeaked = GcIT.leak(blue.blobs, prefix, blue.blobOwner().value(), 1).get(0);
            String greenLeaked = GcIT.leak(green.blobs, prefix, green.blobOwner().value(), 1).get(0);

            awaitTwoGcRunsPastTheGrace(blueApp, greenApp);

            assertFalse(exists(blue, blueLeaked) || exists(green, greenLeaked), "each gc collected its own garbage");
            assertEquals(0, blueApp.metrics().gcFailures(), "blue gc failures");
            assertEquals(0, greenApp.metrics().gcFailures(), "green gc failures");
            assertEquals(blue.assertSealedExactly(upper), green.assertSealedExactly(upper));
        }
    }

    /**
     * Every part is written by now: lets the grace pass (by the local clock), then waits until each
     * app's GC ran twice more.
     */
    static void awaitTwoGcRunsPastTheGrace(MvsinkApp... apps) {
        long writtenAt = System.currentTimeMillis();
        await().atMost(Duration.ofMillis(GRACE_MS + 10_000)).pollInterval(Duration.ofMillis(200))
            .until(() -> System.currentTimeMillis() > writtenAt + GRACE_MS + 1_000);
        long[] runs = Arrays.stream(apps).mapToLong(app -> app.metrics().gcRuns()).toArray();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
            .until(() -> IntStream.range(0, apps.length).allMatch(i -> apps[i].metrics().gcRuns() >= runs[i] + 2));
    }

    static boolean exists(SinkHarness sink, String key) {
        return sink.blobs.list(key).stream().anyMatch(blob -> blob.key().equals(key));
    }

    /** GC every 2 s with the least grace the test overrides allow. */
    static Properties overrides() {
        Properties props = new Properties();
        props.put(MvsinkConfig.GC_GRACE_MS, Long.toString(GRACE_MS));
        props.put(MvsinkConfig.GC_INTERVAL_MS, "2000");
        props.put("streams.producer.transaction.timeout.ms", "5000");
        props.put(MvsinkConfig.BARRIER_TIMEOUT_MS, "200");
        return props;
    }
}
