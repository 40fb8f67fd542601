package io.mvsink.bench;

import io.mvsink.batch.CoalescingMode;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The coalescing benchmark: the same workload in each coalescing mode, one after another, on one
 * local stack; prints a table of the figures with their ratios to {@code none}, the issue's
 * targets met or missed, and writes the figures as JSON. Exit code 1 if any mode's snapshot
 * differs from the workload's model (a correctness failure, not a performance one).
 */
public final class Bench {
    private Bench() {
    }

    /**
     * An unmeasured steady run of the first mode for the options' warm-up seconds (none if 0), so
     * that no measured mode pays for the JVM's and the stack's warm-up.
     */
    static void warmUp(LocalStack stack, BenchOptions options, Path work, String runId) throws Exception {
        if (options.warmupSeconds() > 0) {
            System.err.printf("bench: warm-up (not measured): mode %s for %d s%n",
                options.modes().get(0).configName(), options.warmupSeconds());
            new BenchRun(stack, options.withDuration(options.warmupSeconds()), work, runId + "w")
                .run(options.modes().get(0));
        }
    }

    public static int run(BenchOptions options) throws Exception {
        Path work = Files.createTempDirectory("mvsink-bench");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
        List<BenchFigures> figures = new ArrayList<>();
        List<SubscriberFigures> subscribers = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1 ...");
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            warmUp(stack, options, work, runId);
            BenchRun run = new BenchRun(stack, options, work, runId);
            for (CoalescingMode mode : options.modes()) {
                System.err.printf("bench: mode %s, %d partitions, %d stream threads, %.0f updates/s for %d s%n",
                    mode.configName(), options.partitions(), options.threads(), options.rate(), options.durationSeconds());
                BenchFigures f = run.run(mode);
                figures.add(f);
                subscribers = run.subscribers();
                if (!f.snapshotEqualsModel()) {
                    System.err.println("bench: FAILED: mode " + mode.configName()
                        + ": the snapshot read back differs from the workload's model");
                }
            }
        }
        System.out.printf("mvsink bench: %d partitions, %d stream threads, batch.interval.ms %d, %.0f updates/s, "
                + "%d s per mode after %d s of warm-up%n%n", options.partitions(), options.threads(), options.intervalMs(),
            options.rate(), options.durationSeconds(), options.warmupSeconds());
        System.out.println(BenchTable.format(figures));
        if (!subscribers.isEmpty()) {
            System.out.println("--subscribe: a subscriber in the bench's JVM follows each mode's shard from its first "
                + "append; lag = from a seal's commit (first readable) to its delivery");
            System.out.println(SubscriberFigures.format(subscribers));
        }
        System.out.println("targets:");
        BenchTargets.check(figures, options.intervalMs()).forEach(System.out::println);
        subscribers.forEach(s -> System.out.println(s.targetLine()));
        BenchFigures.writeJson(options.out(), options, figures, subscribers);
        System.out.println("\nfigures written to " + options.out().toAbsolutePath());
        boolean correct = figures.stream().allMatch(BenchFigures::snapshotEqualsModel)
            && subscribers.stream().allMatch(s -> s.sumEqualsModel() && s.failure() == null);
        if (!correct) {
            System.out.println("FAILED: a snapshot, or a subscriber's sum, differs from the workload's model (see above)");
        }
        return correct ? 0 : 1;
    }
}
