package io.mvsink.bench;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.read.SnapshotReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Time;

/**
 * The quiet-shard benchmark (issue 14): a trickle of updates on a 1 s grid, sealed as a user runs
 * the app (barrier coalescing, compaction on, defaults otherwise), once with inline batches at
 * the default limit and once with {@code inline.max.bytes=0}. It reports blob PUTs per seal (the
 * builder's part writes and all writes, merges included) and the consensus bytes per seal, and
 * checks each snapshot against the workload's model. Exit code 1 if a snapshot differs.
 */
public final class QuietBench {
    /** Issue 14's target: blob PUTs per seal with inline batches on. */
    static final double TARGET_PUTS_PER_SEAL = 0.05;
    private static final long PROGRESS_EVERY_MS = 200;
    private static final Duration SEAL_TIMEOUT = Duration.ofSeconds(120);

    /** One run's figures. */
    record Figures(String label, long inlineMaxBytes, long sent, long seals, long partPuts, long allPuts,
                   long merges, long sealDiffBytes, long inlineBytesHeld, boolean snapshotEqualsModel) {
        double partPutsPerSeal() {
            return (double) partPuts / Math.max(1, seals);
        }

        double allPutsPerSeal() {
            return (double) allPuts / Math.max(1, seals);
        }

        double diffBytesPerSeal() {
            return (double) sealDiffBytes / Math.max(1, seals);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", label);
            m.put("inline_max_bytes", inlineMaxBytes);
            m.put("updates", sent);
            m.put("seals", seals);
            m.put("part_puts", partPuts);
            m.put("all_puts", allPuts);
            m.put("merges", merges);
            m.put("part_puts_per_seal", partPutsPerSeal());
            m.put("all_puts_per_seal", allPutsPerSeal());
            m.put("seal_diff_bytes_per_seal", diffBytesPerSeal());
            m.put("inline_bytes_held_at_end", inlineBytesHeld);
            m.put("snapshot_equals_model", snapshotEqualsModel);
            return m;
        }
    }

    private QuietBench() {
    }

    /** Runs inline on, then off, each for {@code durationSeconds} at {@code rate} updates/s. */
    public static int run(long durationSeconds, double rate, int partitions, int threads, long intervalMs, Path out)
        throws Exception {
        Path work = Files.createTempDirectory("mvsink-bench-quiet");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
        List<Figures> figures = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1 ...");
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            for (boolean inline : new boolean[] {true, false}) {
                String label = inline ? "inline on" : "inline off";
                System.err.printf("bench: quiet shard, %s: %.0f updates/s on a %d ms grid for %d s%n", label, rate,
                    intervalMs, durationSeconds);
                Properties props = BenchRun.appProperties(stack, "quiet-" + runId + (inline ? "-on" : "-off"),
                    CoalescingMode.BARRIER, threads, intervalMs, work);
                if (!inline) {
                    props.put(MvsinkConfig.INLINE_MAX_BYTES, "0");
                }
                figures.add(runOne(stack, label, new MvsinkConfig(props), partitions, rate, durationSeconds));
            }
        }
        System.out.printf("mvsink bench --scenario quiet: %d partitions, %d stream threads, batch.interval.ms %d, "
            + "%.0f updates/s for %d s per run, compaction on%n%n", partitions, threads, intervalMs, rate, durationSeconds);
        System.out.println(table(figures));
        Figures on = figures.get(0);
        System.out.printf(Locale.ROOT, "target: blob PUTs per seal with inline on <= %.2f: %.3f %s%n",
            TARGET_PUTS_PER_SEAL, on.allPutsPerSeal(), on.allPutsPerSeal() <= TARGET_PUTS_PER_SEAL ? "met" : "MISSED");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("scenario", "quiet");
        doc.put("options", Map.of("duration_s", durationSeconds, "rate", rate, "partitions", partitions,
            "threads", threads, "interval_ms", intervalMs));
        doc.put("runs", figures.stream().map(Figures::toMap).toList());
        BenchJson.write(out, doc);
        System.out.println("\nfigures written to " + out.toAbsolutePath());
        boolean correct = figures.stream().allMatch(Figures::snapshotEqualsModel);
        if (!correct) {
            System.out.println("FAILED: a snapshot differs from the workload's model");
        }
        return correct ? 0 : 1;
    }

    private static Figures runOne(LocalStack stack, String label, MvsinkConfig config, int partitions, double rate,
                                  long durationSeconds) throws Exception {
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(config.correctionsTopic(), partitions, (short) 1)))
                .all().get(60, TimeUnit.SECONDS);
        }
        Workload workload = new Workload(label.hashCode(), 500, 0.3);
        try (MvsinkApp.Dependencies deps = Wiring.dependencies(config);
             MvsinkApp app = new MvsinkApp(config, deps);
             CorrectionProducer producer = new CorrectionProducer(client, config.correctionsTopic(),
                 config.rowSubject(), deps.registry())) {
            String subject = config.rowSubject();
            deps.registry().register(subject, Workload.ROW_SCHEMA);
            deps.registry().setCompatibility(subject, "BACKWARD");
            app.start();
            BenchRun.awaitRunning(app, CoalescingMode.BARRIER);
            long putsBefore = deps.blobs().writeRequests();
            WorkloadRunner runner = new WorkloadRunner(producer, workload, Time.SYSTEM);
            CompletableFuture<Long> producing = CompletableFuture.supplyAsync(() -> runner.run(
                rate, durationSeconds * 1000, Long.MAX_VALUE, PROGRESS_EVERY_MS, n -> { }));
            ShardMetrics m = app.metrics();
            while (!producing.isDone()) {
                System.err.printf("bench: %s: %d updates sent, %d seals, %d blob PUTs%n", label, runner.sent(),
                    m.appends(), deps.blobs().writeRequests() - putsBefore);
                Thread.sleep(10_000);
            }
            long sent = producing.join();
            ShardState state = BenchRun.awaitSeal(config, client, runner.sealThrough(config.batchIntervalMs()),
                SEAL_TIMEOUT, () -> { });
            Map<String, Long> model = new TreeMap<>();
            workload.model().forEach((row, count) -> model.put(GenericData.get().toString(row), count));
            boolean equal = new SnapshotReader(deps.blobs(), deps.registry(), subject)
                .read(state, state.upper() - 1).equals(model);
            return new Figures(label, config.inlineMaxBytes(), sent, m.appends(), m.partsWritten(),
                deps.blobs().writeRequests() - putsBefore, m.compactions(), m.consensusBytes(), state.inlineBytes(),
                equal);
        }
    }

    static String table(List<Figures> figures) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%-11s %8s %7s %9s %9s %7s %13s %13s %15s %13s%n",
            "run", "updates", "seals", "part PUTs", "all PUTs", "merges", "part PUTs/seal", "all PUTs/seal",
            "diff bytes/seal", "snapshot=model"));
        for (Figures f : figures) {
            t.append(String.format(Locale.ROOT, "%-11s %8d %7d %9d %9d %7d %13.3f %13.3f %15.0f %13s%n", f.label(),
                f.sent(), f.seals(), f.partPuts(), f.allPuts(), f.merges(), f.partPutsPerSeal(), f.allPutsPerSeal(),
                f.diffBytesPerSeal(), f.snapshotEqualsModel() ? "yes" : "NO"));
        }
        return t.toString();
    }
}
