package io.mvsink.bench;

import io.mvsink.batch.CoalescingMode;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The highest steady rate (issue 23, item 4): per coalescing mode, one app of the steady bench
 * ({@link BenchRun}: same workload, stack, settings and read-back), fed at rising rates
 * ({@link RateSteps}) with no pause between steps, until a step fails ({@link StepVerdict});
 * the mode's highest steady rate is the last step that passed. Prints the steps, each mode's
 * highest rate with the steady figures there, the targets met or missed, and writes JSON. Exit
 * code 1 if a mode's snapshot differs from the workload's model.
 */
public final class MaxRateBench {
    private MaxRateBench() {
    }

    /** One mode's search and the whole run's figures (all steps, then the seal through the last update). */
    record ModeResult(String mode, RateSearch.Result search, BenchFigures run) {
    }

    public static int run(BenchOptions options, RateSteps steps) throws Exception {
        Path work = Files.createTempDirectory("mvsink-bench-max-rate");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000) + "m";
        List<ModeResult> results = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1 ...");
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            Bench.warmUp(stack, options, work, runId);
            BenchRun run = new BenchRun(stack, options.withDuration(steps.stepSeconds()), work, runId);
            for (CoalescingMode mode : options.modes()) {
                System.err.printf("bench: mode %s, rates %s updates/s, %d s each, until a step fails%n",
                    mode.configName(), steps.rates(), steps.stepSeconds());
                AtomicReference<RateSearch.Result> search = new AtomicReference<>();
                BenchFigures figures = run.run(mode, live -> search(live, steps, options.intervalMs(), search));
                results.add(new ModeResult(mode.configName(), search.get(), figures));
                if (!figures.snapshotEqualsModel()) {
                    System.err.println("bench: FAILED: mode " + mode.configName()
                        + ": the snapshot read back differs from the workload's model");
                }
            }
        }
        System.out.println(MaxRateReport.header(options, steps));
        System.out.println(MaxRateReport.steps(results));
        System.out.println(MaxRateReport.summary(results));
        System.out.println("targets:");
        MaxRateReport.targets(results, steps).forEach(System.out::println);
        MaxRateReport.writeJson(options.out(), options, steps, results);
        System.out.println("\nfigures written to " + options.out().toAbsolutePath());
        boolean correct = results.stream().allMatch(r -> r.run().snapshotEqualsModel());
        if (!correct) {
            System.out.println("FAILED: a snapshot differs from the workload's model (see above)");
        }
        return correct ? 0 : 1;
    }

    /** The producing phase: the steps of the search, one after another on one sending thread. */
    private static BenchRun.Produced search(BenchRun.Live live, RateSteps steps, long intervalMs,
                                            AtomicReference<RateSearch.Result> result) throws Exception {
        AtomicReference<Thread> sender = new AtomicReference<>();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bench-producer");
            sender.set(t);
            return t;
        });
        long startNanos = System.nanoTime();
        try (StepMeter meter = new StepMeter(live, System.currentTimeMillis())) {
            executor.submit(() -> { }).get();   // starts the sending thread, so that every step can read its CPU
            result.set(RateSearch.search(steps, intervalMs, rate -> step(live, meter, executor, sender.get(), rate,
                steps.stepSeconds())));
        } finally {
            executor.shutdownNow();
        }
        return new BenchRun.Produced(live.runner().sent(), (System.nanoTime() - startNanos) / 1e9, live.metrics().updates());
    }

    private static StepFigures step(BenchRun.Live live, StepMeter meter, ExecutorService executor, Thread sender,
                                    double rate, long seconds) throws Exception {
        StepMeter.Mark start = meter.mark(sender);
        Future<Long> sending = executor.submit(() -> live.runner().run(rate, seconds * 1000, Long.MAX_VALUE,
            BenchRun.PROGRESS_EVERY_MS, n -> { }));
        long lagStart = meter.sealLagMs();
        Progress progress = new Progress(live.mode(), seconds, live.metrics(), live.blobs());
        String phase = String.format("%.0f/s", rate);
        while (!done(sending)) {
            progress.print(live.runner().sent(), phase);
        }
        StepMeter.Mark end = meter.mark(sender);
        long lagEnd = meter.sealLagMs();
        progress.print(live.runner().sent(), phase);
        progress.done();
        return meter.figures(rate, start, end, lagStart, lagEnd);
    }

    /** Waits up to a second for the step's sending to end; true if it has. */
    private static boolean done(Future<Long> sending) throws Exception {
        try {
            sending.get(1, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        }
    }
}
