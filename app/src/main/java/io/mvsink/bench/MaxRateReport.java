package io.mvsink.bench;

import io.mvsink.bench.BenchTargets.Check;
import io.mvsink.bench.MaxRateBench.ModeResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The max-rate bench's output: the steps of each mode's search, its highest rate, the targets, JSON. */
final class MaxRateReport {
    private MaxRateReport() {
    }

    static String header(BenchOptions options, RateSteps steps) {
        return String.format("mvsink bench --scenario max-rate: %d partitions, %d stream threads, batch.interval.ms %d, "
                + "rates %s updates/s (x%s up to %.0f), %d s per step, after %d s of warm-up%n"
                + "a step passes when the producer sends >= %.0f%% of the rate, an interval seals, seal p99 <= %d "
                + "intervals and the seal lag grows <= %d intervals%n", options.partitions(), options.threads(),
            options.intervalMs(), steps.rates().stream().map(r -> String.format("%.0f", r)).toList(), steps.factor(),
            steps.maxRate(), steps.stepSeconds(), options.warmupSeconds(), 100 * StepVerdict.MIN_SENT_SHARE,
            StepVerdict.MAX_SEAL_P99_INTERVALS, StepVerdict.MAX_LAG_GROWTH_INTERVALS);
    }

    /** One row per step run, every mode's in turn. */
    static String steps(List<ModeResult> results) {
        StringBuilder out = new StringBuilder(String.format("%-12s %7s %7s %7s %6s %6s %8s %8s %8s %6s %6s %8s %8s  %s%n",
            "mode", "rate/s", "sent/s", "read/s", "p50 ms", "p99 ms", "lag0 ms", "lag1 ms", "backlog", "sink", "prod",
            "writes/i", "batch/ap", "verdict"));
        for (ModeResult r : results) {
            for (RateSearch.Step step : r.search().steps()) {
                StepFigures f = step.figures();
                out.append(String.format("%-12s %7.0f %7.0f %7.0f %6d %6d %8d %8d %8d %5.0f%% %5.0f%% %8.2f %8.2f  %s%n",
                    r.mode(), f.rate(), f.sentPerSecond(), f.processedPerSecond(), f.sealP50Ms(), f.sealP99Ms(),
                    f.sealLagStartMs(), f.sealLagEndMs(), f.backlog(), f.sinkCpuPercent(), f.producerCpuPercent(),
                    f.blobWritesPerInterval(), f.batchesPerAppend(), step.verdict()));
            }
        }
        out.append("(lag0/lag1: seal lag at the step's start/end; backlog: updates sent, not yet read; sink/prod: CPU "
            + "of the app and of the producer, % of one core; writes/i: blob write requests per interval sealed)\n");
        return out.toString();
    }

    /** Each mode's highest steady rate and the steady figures at it, blob writes with their ratio to none's. */
    static String summary(List<ModeResult> results) {
        Optional<StepFigures> none = highestOf(results, "none");
        StringBuilder out = new StringBuilder(String.format("%-12s %-34s %8s %7s %20s %9s%n", "mode",
            "highest steady rate (updates/s)", "sink CPU", "p99 ms", "blob writes/interval", "batch/ap"));
        for (ModeResult r : results) {
            Optional<RateSearch.Step> highest = r.search().highest();
            if (highest.isEmpty()) {
                out.append(String.format("%-12s %-34s%n", r.mode(), "none: the first step failed"));
                continue;
            }
            StepFigures f = highest.get().figures();
            String rate = String.format("%.0f", f.rate()) + (r.search().exhausted() ? " (every step passed)" : "");
            String writes = String.format("%.2f", f.blobWritesPerInterval())
                + (none.isPresent() && !r.mode().equals("none") ? ratio(f.blobWritesPerInterval(),
                none.get().blobWritesPerInterval()) : "");
            out.append(String.format("%-12s %-34s %7.0f%% %7d %20s %9.2f%n", r.mode(), rate, f.sinkCpuPercent(),
                f.sealP99Ms(), writes, f.batchesPerAppend()));
        }
        return out.toString();
    }

    static List<Check> targets(List<ModeResult> results, RateSteps steps) {
        List<Check> checks = new ArrayList<>();
        for (ModeResult r : results) {
            Optional<RateSearch.Step> highest = r.search().highest();
            checks.add(new Check(r.mode() + " sustains the start rate (" + String.format("%.0f", steps.startRate())
                + "/s)", highest.map(s -> String.format("highest steady rate %.0f/s", s.figures().rate()))
                .orElse(r.search().steps().get(0).verdict().toString()), highest.isPresent()));
        }
        Optional<StepFigures> none = highestOf(results, "none");
        highestOf(results, "barrier").ifPresent(b -> {
            checks.add(new Check("barrier batches per append == 1.00 at its highest rate",
                String.format("%.2f at %.0f/s", b.batchesPerAppend(), b.rate()), Math.abs(b.batchesPerAppend() - 1) < 0.005));
            none.ifPresent(n -> checks.add(new Check("barrier blob writes per interval <= 0.15x none's, each at its "
                + "highest rate", String.format("%.2f at %.0f/s vs none %.2f at %.0f/s = %.2fx", b.blobWritesPerInterval(),
                b.rate(), n.blobWritesPerInterval(), n.rate(), b.blobWritesPerInterval() / n.blobWritesPerInterval()),
                b.blobWritesPerInterval() <= 0.15 * n.blobWritesPerInterval())));
        });
        highestOf(results, "best-effort").ifPresent(e -> checks.add(new Check(
            "best-effort batches per append <= 1.2 at its highest rate",
            String.format("%.2f at %.0f/s", e.batchesPerAppend(), e.rate()), e.batchesPerAppend() <= 1.2)));
        for (ModeResult r : results) {
            checks.add(new Check(r.mode() + " snapshot equals the workload's model",
                r.run().snapshotRows() + " rows", r.run().snapshotEqualsModel()));
        }
        return checks;
    }

    /** A mode in the JSON: its highest rate (null if none), its search's steps, the whole run's steady figures. */
    private record ModeJson(String mode, Double highestRate, RateSearch.Result search, Map<String, Object> run) {
    }

    private record Document(BenchOptions options, RateSteps steps, List<ModeJson> modes) {
    }

    static void writeJson(Path file, BenchOptions options, RateSteps steps, List<ModeResult> results) {
        BenchJson.writeRecords(file, new Document(options, steps, results.stream().map(r -> new ModeJson(r.mode(),
            r.search().highest().map(s -> s.figures().rate()).orElse(null), r.search(), r.run().toMap())).toList()));
    }

    private static Optional<StepFigures> highestOf(List<ModeResult> results, String mode) {
        return results.stream().filter(r -> r.mode().equals(mode)).findFirst()
            .flatMap(r -> r.search().highest()).map(RateSearch.Step::figures);
    }

    private static String ratio(double v, double base) {
        return base == 0 ? " (-)" : String.format(" (%.2fx)", v / base);
    }
}
