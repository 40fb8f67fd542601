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

    private CatchUpTargets() {
    }

    static List<Check> check(List<CatchUpFigures> figures, CatchUpOptions options) {
        List<Check> checks = new ArrayList<>();
        Optional<CatchUpFigures> reference = CatchUpFigures.find(figures, CatchUpFigures.REFERENCE, 0);
        Optional<CatchUpFigures> barrier = CatchUpFigures.find(figures, "barrier", options.intervalMs());
        Optional<CatchUpFigures> wide = CatchUpFigures.find(figures, "barrier", options.wideIntervalMs());
        String fine = CatchUpFigures.grid(options.intervalMs());
        String wideGrid = CatchUpFigures.grid(options.wideIntervalMs());
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
        if (run.isEmpty()) {
            return new Check(target, "not run", Verdict.NOT_APPLICABLE);
        }
        double v = figure.of(run.get());
        return new Check(target, String.format(Locale.ROOT, "%.2f", v), verdict(run.get().completed() && v <= most));
    }

    private static Verdict verdict(boolean met) {
        return met ? Verdict.MET : Verdict.MISSED;
    }
}
