package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.blob.BlobInfo;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The blob GC's grace is a fact of the shard (issue 21 item 1): a {@code gc} command run with a
 * smaller {@code gc.grace.ms} than the shard's appenders use must not delete the parts of batches
 * they still hold. Reproduced as a user would: two instances with a long grace, one partition
 * holding its progress back while the others' parts wait at the appender for the cover, then
 * {@code mvsink gc} with a config whose grace is short enough for those parts. Before the fix the
 * command deleted them, and once the partition caught up the shard sealed batches whose parts were
 * gone: the snapshot failed with "no blob at".
 */
@ExtendWith(LocalStackExtension.class)
class GcGraceIT {
    /** The apps' grace: their appenders seal batches up to a minute old. */
    private static final long APP_GRACE_MS = 120_000;
    /** The command's grace: the least the overrides allow (4 x (5 s + 0.2 s + 0.25 s + 2 s)). */
    private static final long COMMAND_GRACE_MS = 30_000;
    private static final int PARTITIONS = 4;
    private static final int HELD = 3;

    @Test
    void shouldNotDeletePendingPartsWhenTheGcCommandRunsWithASmallerGraceThanTheShards(LocalStack stack)
            throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, PARTITIONS, overrides());
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(1);
            sink.startApp(1);
            Workload workload = new Workload(21, 400, 0.3);
            produce(producer, workload, 1, 2_000);
            producer.progress(2_000);
            producer.flush();
            sink.awaitUpper(2_000);
            long upper = 4_000;
            produce(producer, workload, 2_000, upper);
            for (int p = 0; p < PARTITIONS; p++) {
                producer.progressOn(p, p == HELD ? 2_000 : upper);
            }
            producer.flush();
            // the instance without the held partition writes its parts; they wait for the cover
            String prefix = sink.config(0).blobPrefix();
            List<String> pending = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                pending.clear();
                pending.addAll(keys(sink, prefix));
                pending.removeAll(sink.state().referencedBlobs());
                return !pending.isEmpty();
            });
            long newest = sink.blobs.list(prefix).stream().mapToLong(b -> b.lastModified().toEpochMilli()).max()
                .orElseThrow();
            await().atMost(Duration.ofMillis(COMMAND_GRACE_MS + 30_000)).pollInterval(Duration.ofMillis(200))
                .until(() -> System.currentTimeMillis() > newest + COMMAND_GRACE_MS + 1_000);
            assertEquals(2_000, sink.state().upper(), "nothing sealed past the held partition's frontier");

            CliRun.Result gc = gc(sink);

            assertTrue(keys(sink, prefix).containsAll(pending), "the parts of the pending batches are still there "
                + "after the gc command (exit " + gc.exit() + "): " + String.join("\n", gc.lines()));
            producer.progressOn(HELD, upper);
            producer.flush();
            sink.assertSealedExactly(upper);
        }
    }

    /** Sends 1,000 updates of {@code workload} with times spread over {@code [lower, upper)}. */
    private static void produce(CorrectionProducer producer, Workload workload, long lower, long upper) {
        for (int i = 0; i < 1_000; i++) {
            Workload.Correction c = workload.next();
            producer.update(c.key(), c.row(), lower + (long) i * (upper - lower) / 1_000, c.diff());
        }
    }

    private static Properties overrides() {
        Properties props = new Properties();
        props.put(MvsinkConfig.GC_GRACE_MS, Long.toString(APP_GRACE_MS));
        props.put(MvsinkConfig.GC_INTERVAL_MS, "0");
        props.put(MvsinkConfig.INLINE_MAX_BYTES, "0");
        props.put("streams.producer.transaction.timeout.ms", "5000");
        props.put(MvsinkConfig.BARRIER_TIMEOUT_MS, "200");
        return props;
    }

    /** The gc command as a user runs it with a config file whose grace is the command's own. */
    private static CliRun.Result gc(SinkHarness sink) {
        List<String> args = new ArrayList<>(List.of("gc"));
        args.addAll(sink.cliArgs());
        args.addAll(List.of("--set", MvsinkConfig.GC_GRACE_MS + "=" + COMMAND_GRACE_MS));
        return CliRun.run(args);
    }

    private static List<String> keys(SinkHarness sink, String prefix) {
        return sink.blobs.list(prefix).stream().map(BlobInfo::key).toList();
    }
}
