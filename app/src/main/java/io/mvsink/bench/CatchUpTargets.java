package io.mvsink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The catch-up targets of the issue, each a ratio within one run, checked against the measured
 * figures and reported met, missed or not applicable (a program not run). A miss does not fail
 * the bench.
 */
final class CatchUpTargets {
    enum Verdict { MET, MISSED, NOT_APPLICABLE }

    record Check(String target, String measured, Verdict verdict) {
        @Override
        public String toString() {
            String tag = switch (verdict) {
                case MET -> "met ";
                case MISSED -> "MISS";
                case NOT_APPLICABLE -> "n/a ";
            };
            return String.format(Locale.ROOT, "  [%s] %s: %s", tag, target, measured);
        }
    }

    /** Issue 23's bound on the time from launch to the first append, in seconds. */
    private static final int FIRST_APPEND_SECONDS = 5;
    /** Issue 23: the share of the machine's cores the sink keeps busy while it catches up, on average. */
    private static final double BUSY_SHARE = 0.9;

    private CatchUpTargets() {
    }

    /** The targets, with the machine's cores as this JVM sees them (the bench's children run beside it). */
    static List<Check> check(List<CatchUpFigures> figures, CatchUpOptions options) {
        return check(figures, options, Runtime.getRuntime().availableProcessors());
    }

    static List<Check> check(List<CatchUpFigures> figures, CatchUpOptions options, int cores) {
        List<Check> checks = new ArrayList<>();
        Optional<CatchUpFigures> reference = CatchUpFigures.find(figures, CatchUpFigures.REFERENCE, 0);
        Optional<CatchUpFigures> barrier = CatchUpFigures.find(figures, "barrier", options.intervalMs());
        Optional<CatchUpFigures> wide = CatchUpFigures.find(figures, "barrier", options.wideIntervalMs());
        String fine = CatchUpFigures.grid(options.intervalMs());
        // --wide-interval-ms 0 runs no wide grid: its checks are n/a, named without a "0 min" grid
        String wideGrid = options.wideIntervalMs() > 0 ? CatchUpFigures.grid(options.wideIntervalMs()) : "wide";
        checks.add(atLeast("barrier " + fine + " grid updates/s >= 0.8x the plain Streams app's", barrier, reference,
            0.8, CatchUpFigures::updatesPerSecondFromLaunch));
        checks.add(atLeast("barrier " + fine + " grid updates/s >= 0.8x barrier on the " + wideGrid + " grid", barrier,
            wide, 0.8, CatchUpFigures::updatesPerSecondFromLaunch));
        for (Optional<CatchUpFigures> run : List.of(barrier, wide)) {
            String name = run.map(CatchUpFigures::name).orElse("barrier");
            checks.add(atMost(name + ": CPU per update <= 1.25x the plain Streams app's", run, reference, 1.25,
                CatchUpFigures::cpuSecondsPerMillion));
            checks.add(bound(name + ": blob PUTs per seal <= 1.1", run, f -> f.seals().putsPerSeal(), 1.1));
            checks.add(bound(name + ": batches per append <= 1.05", run, f -> f.seals().batchesPerSeal(), 1.05));
        }
        checks.addAll(speed(barrier, reference, cores));
        Optional<CatchUpFigures> none = CatchUpFigures.find(figures, "none", options.intervalMs());
        checks.add(bound("none " + fine + " grid: at most one batch per task per minted range (batches per seal <= "
            + options.partitions() + " tasks)", none, f -> f.seals().batchesPerSeal(), options.partitions()));
        checks.add(wide.map(w -> new Check("barrier " + wideGrid + " grid completes with -Xmx" + w.heap(),
                w.completed() ? "sealed the final upper" : "did not complete", verdict(w.completed())))
            .orElse(new Check("barrier " + wideGrid + " grid completes with -Xmx" + options.wideHeap(), "not run",
                Verdict.NOT_APPLICABLE)));
        for (CatchUpFigures f : figures) {
            checks.add(new Check(f.name() + " caught up", f.completed() ? "yes" : "NO", verdict(f.completed())));
            if (f.isMvsink()) {
                checks.add(new Check(f.name() + " snapshot equals the workload's model", f.snapshot().rows() + " rows",
                    verdict(f.snapshot().equalsModel())));
            }
        }
        return checks;
    }

    /**
     * Issue 23's targets for {@code barrier} (the fine grid's run): its first append within 5 s of
     * launch, 1.5x the plain Streams app's updates/s from launch at 0.9x its CPU per update, and 90%
     * of the machine's {@code cores} busy on average from launch to caught up.
     */
    private static List<Check> speed(Optional<CatchUpFigures> barrier, Optional<CatchUpFigures> reference, int cores) {
        String name = barrier.map(CatchUpFigures::name).orElse("barrier");
        double busyPercent = BUSY_SHARE * cores * 100;
        return List.of(
            bound(name + ": launch to first append <= " + FIRST_APPEND_SECONDS + " s (issue 23)", barrier,
                CatchUpFigures::secondsToFirst, FIRST_APPEND_SECONDS),
            atLeast(name + " updates/s from launch >= 1.5x the plain Streams app's (issue 23)", barrier, reference,
                1.5, CatchUpFigures::updatesPerSecondFromLaunch),
            atMost(name + ": CPU per update <= 0.9x the plain Streams app's (issue 23)", barrier, reference, 0.9,
                CatchUpFigures::cpuSecondsPerMillion),
            floor(String.format(Locale.ROOT, "%s: average CPU from launch >= %.0f%% (%.0f%% of %d %s; issue 23)", name,
                busyPercent, BUSY_SHARE * 100, cores, cores == 1 ? "core" : "cores"), barrier,
                f -> f.coresBusy() * 100, busyPercent));
    }

    private interface Figure {
        double of(CatchUpFigures f);
    }

    private static Check atLeast(String target, Optional<CatchUpFigures> run, Optional<CatchUpFigures> base,
                                 double factor, Figure figure) {
        return compare(target, run, base, factor, figure, true);
    }

    private static Check atMost(String target, Optional<CatchUpFigures> run, Optional<CatchUpFigures> base,
                                double factor, Figure figure) {
        return compare(target, run, base, factor, figure, false);
    }

    private static Check compare(String target, Optional<CatchUpFigures> run, Optional<CatchUpFigures> base,
                                 double factor, Figure figure, boolean atLeast) {
        if (run.isEmpty() || base.isEmpty()) {
            return new Check(target, "not run", Verdict.NOT_APPLICABLE);
        }
        double v = figure.of(run.get());
        double b = figure.of(base.get());
        String measured = String.format(Locale.ROOT, "%.1f vs %.1f = %s", v, b, CatchUpTable.ratio(v, b));
        if (!Double.isFinite(v) || !Double.isFinite(b) || !run.get().completed() || !base.get().completed()) {
            return new Check(target, measured + " (a run did not complete)", Verdict.MISSED);
        }
        return new Check(target, measured, verdict(atLeast ? v >= factor * b : v <= factor * b));
    }

    private static Check bound(String target, Optional<CatchUpFigures> run, Figure figure, double most) {
        return limit(target, run, figure, most, false);
    }

    private static Check floor(String target, Optional<CatchUpFigures> run, Figure figure, double least) {
        return limit(target, run, figure, least, true);
    }

    /** {@code figure} of {@code run} against a fixed limit, at least or at most; NaN misses. */
    private static Check limit(String target, Optional<CatchUpFigures> run, Figure figure, double limit,
                               boolean atLeast) {
        if (run.isEmpty()) {
            return new Check(target, "not run", Verdict.NOT_APPLICABLE);
        }
        double v = figure.of(run.get());
        boolean within = atLeast ? v >= limit : v <= limit;
        return new Check(target, String.format(Locale.ROOT, "%.2f", v), verdict(run.get().completed() && within));
    }

    private static Verdict verdict(boolean met) {
        return met ? Verdict.MET : Verdict.MISSED;
    }
}
