package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardJmx;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blob garbage collection on the real stack: the {@code gc} command (dry run, then for real) and
 * the app's own GC delete blobs leaked under the shard's prefix once older than the grace, and
 * nothing a state references, nothing outside the prefix, nothing of the shard's owner without the
 * cluster (written before owners named it) unless the command claims unowned blobs; the shard
 * still reads exactly.
 */
@ExtendWith(LocalStackExtension.class)
class GcIT {
    /** Small for the test; its quarter (the time a run may take) is still a few reads of the consensus topic. */
    private static final long GRACE_MS = 30_000;

    @Test
    void shouldDeleteOnlyLeakedBlobsWithTheGcCommandAfterADryRun(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 3, overrides(0));
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(2);
            long upper = produceAndSeal(sink, producer, 31);
            String prefix = sink.config(0).blobPrefix();
            BlobOwner owner = sink.blobOwner();
            List<String> leaked = leak(sink.blobs, prefix, owner.value(), 3);
            String legacy = leak(sink.blobs, prefix, owner.legacy(), 1).get(0);
            String outside = sink.correctionsTopic() + "-elsewhere/leaked-" + UUID.randomUUID() + ".avro";
            sink.blobs.putIfAbsent(outside, new byte[] {1, 2, 3}, owner.value());
            awaitOlderThanTheGrace(sink.blobs, prefix);
            Set<String> referenced = sink.state().referencedBlobs();
            Set<String> before = keys(sink.blobs, prefix);
            assertTrue(before.containsAll(referenced) && before.containsAll(leaked));

            List<String> wouldDelete = gc(sink, "--dry-run");
            assertEquals(before, keys(sink.blobs, prefix), "a dry run deletes nothing");
            assertTrue(wouldDelete.containsAll(leaked), "the dry run names the leaked blobs: " + wouldDelete);
            assertFalse(wouldDelete.contains(legacy), "nor a blob of the owner without the cluster: " + wouldDelete);
            assertTrue(wouldDelete.stream().allMatch(k -> k.startsWith(prefix) && !referenced.contains(k)),
                "the dry run names only unreferenced blobs under the prefix: " + wouldDelete);

            assertEquals(List.of(), gc(sink));
            Set<String> after = keys(sink.blobs, prefix);
            Set<String> expected = new TreeSet<>(before);
            wouldDelete.forEach(expected::remove);
            assertEquals(expected, after, "the run deletes what the dry run named, nothing else");
            assertTrue(after.containsAll(referenced), "every referenced blob is still there");
            assertTrue(after.containsAll(sink.state().referencedBlobs()));
            assertTrue(keys(sink.blobs, outside).contains(outside), "the blob outside the prefix is still there");
            assertTrue(after.contains(legacy), "a blob of the owner without the cluster (written before issue 21) is kept");

            gc(sink, "--claim-unowned");
            assertFalse(keys(sink.blobs, prefix).contains(legacy), "--claim-unowned collects it");
            assertTrue(keys(sink.blobs, prefix).containsAll(sink.state().referencedBlobs()));
            sink.assertSealedExactly(upper);
            sink.blobs.delete(outside);
        }
    }

    @Test
    void shouldDeleteALeakedBlobByItselfInTheApp(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 3, overrides(1_000));
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(2);
            long upper = produceAndSeal(sink, producer, 32);
            String prefix = sink.config(0).blobPrefix();
            List<String> leaked = leak(sink.blobs, prefix, sink.blobOwner().value(), 1);
            String legacy = leak(sink.blobs, prefix, sink.blobOwner().legacy(), 1).get(0);

            await().atMost(Duration.ofMillis(GRACE_MS + 60_000)).pollInterval(Duration.ofMillis(500))
                .until(() -> !keys(sink.blobs, prefix).contains(leaked.get(0)));

            assertTrue(keys(sink.blobs, prefix).containsAll(sink.state().referencedBlobs()));
            assertTrue(keys(sink.blobs, prefix).contains(legacy), "the app's gc keeps a blob of the owner without "
                + "the cluster (written before issue 21): it may be the same app's on another cluster");
            assertTrue(app.metrics().gcRuns() >= 1, "gc runs");
            assertTrue(app.metrics().gcDeletedBlobs() >= 1, "gc deleted blobs");
            assertEquals(0, app.metrics().gcFailures(), "gc failures");
            Object deleted = ManagementFactory.getPlatformMBeanServer()
                .getAttribute(ShardJmx.objectName(sink.correctionsTopic()), "gc-deleted-blobs-total");
            assertTrue(((Number) deleted).longValue() >= 1, "gc-deleted-blobs-total over JMX: " + deleted);
            sink.assertSealedExactly(upper);
        }
    }

    private static Properties overrides(long intervalMs) {
        Properties props = new Properties();
        props.put(MvsinkConfig.GC_GRACE_MS, Long.toString(GRACE_MS));
        props.put(MvsinkConfig.GC_INTERVAL_MS, Long.toString(intervalMs));
        // the least safe grace is 4 x (transaction timeout + barrier timeout + linger + 2 s): 30 s here
        props.put("streams.producer.transaction.timeout.ms", "5000");
        props.put(MvsinkConfig.BARRIER_TIMEOUT_MS, "200");
        return props;
    }

    /** Produces a small workload with retractions and waits until it is sealed exactly; returns the upper. */
    private static long produceAndSeal(SinkHarness sink, CorrectionProducer producer, long seed) {
        WorkloadRunner runner = new WorkloadRunner(producer, new Workload(seed, 200, 0.35), Time.SYSTEM);
        assertTrue(runner.run(1000, 3_000, 4_000, 100, n -> { }) > 500, "the workload ran");
        long upper = runner.sealThrough(500);
        assertFalse(sink.assertSealedExactly(upper).isEmpty());
        return upper;
    }

    /** Writes {@code n} blobs of {@code owner} under {@code prefix} that no state will ever reference. */
    static List<String> leak(BlobStore blobs, String prefix, String owner, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String key = prefix + "leaked-" + UUID.randomUUID() + ".avro";
            blobs.putIfAbsent(key, ("garbage " + i).getBytes(StandardCharsets.UTF_8), owner);
            keys.add(key);
        }
        return keys;
    }

    /** Waits until every blob under {@code prefix} is older than the grace (by the local clock). */
    private static void awaitOlderThanTheGrace(BlobStore blobs, String prefix) {
        long newest = blobs.list(prefix).stream().mapToLong(b -> b.lastModified().toEpochMilli()).max().orElseThrow();
        await().atMost(Duration.ofMillis(GRACE_MS + 30_000)).pollInterval(Duration.ofMillis(200))
            .until(() -> System.currentTimeMillis() > newest + GRACE_MS + 1_000);
    }

    private static Set<String> keys(BlobStore blobs, String prefix) {
        Set<String> keys = new TreeSet<>();
        for (BlobInfo blob : blobs.list(prefix)) {
            keys.add(blob.key());
        }
        return keys;
    }

    /**
     * Runs the gc command against the shard and returns its stdout lines. Exit 3 (stopped: reading
     * and deleting took more than a quarter of the grace) means run it again, as a user would.
     */
    private static List<String> gc(SinkHarness sink, String... options) {
        List<String> args = new ArrayList<>(List.of("gc"));
        args.addAll(List.of(options));
        args.addAll(sink.cliArgs());
        List<String> lines = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            lines.clear();
            int exit = run(args, lines);
            assertTrue(exit == 0 || exit == 3, "gc exit " + exit);
            return exit == 0;
        });
        return lines;
    }

    private static int run(List<String> args, List<String> lines) {
        CliRun.Result result = CliRun.run(args);
        lines.addAll(result.lines());
        return result.exit();
    }
}
