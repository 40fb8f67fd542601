package io.mvsink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The targets the coalescing issue sets, checked against the measured figures. A missed target
 * is reported with its figures, never adjusted.
 */
final class BenchTargets {
    record Check(String target, String measured, boolean met) {
        @Override
        public String toString() {
            return String.format("  [%s] %s: %s", met ? "met " : "MISS", target, measured);
        }
    }

    private BenchTargets() {
    }

    static List<Check> check(List<BenchFigures> figures, long intervalMs) {
        List<Check> checks = new ArrayList<>();
        Optional<BenchFigures> none = find(figures, "none");
        Optional<BenchFigures> barrier = find(figures, "barrier");
        Optional<BenchFigures> bestEffort = find(figures, "best-effort");
        barrier.ifPresent(b -> {
            checks.add(new Check("barrier batches per append == 1.00", fmt(b.batchesPerAppend()),
                Math.abs(b.batchesPerAppend() - 1.0) < 0.005));
            none.ifPresent(n -> checks.add(new Check(
                "barrier blob write requests per interval <= 0.15x none",
                ratio(b.blobWritesPerInterval(), n.blobWritesPerInterval()),
                b.blobWritesPerInterval() <= 0.15 * n.blobWritesPerInterval())));
            none.ifPresent(n -> checks.add(new Check(
                "barrier seal p99 <= none p99 + 20% of the interval (" + (n.sealP99Ms() + intervalMs / 5) + " ms)",
                b.sealP99Ms() + " ms vs none " + n.sealP99Ms() + " ms",
                b.sealP99Ms() <= n.sealP99Ms() + intervalMs / 5)));
        });
        bestEffort.ifPresent(e -> checks.add(new Check("best-effort batches per append <= 1.2",
            fmt(e.batchesPerAppend()), e.batchesPerAppend() <= 1.2)));
        none.ifPresent(n -> {
            for (BenchFigures f : List.of(bestEffort, barrier).stream().flatMap(Optional::stream).toList()) {
                checks.add(new Check(f.mode() + " consensus diff bytes per append <= 0.3x none",
                    ratio(f.diffBytesPerAppend(), n.diffBytesPerAppend()),
                    f.diffBytesPerAppend() <= 0.3 * n.diffBytesPerAppend()));
                checks.add(new Check(f.mode() + " updates per second >= 0.9x none",
                    ratio(f.updatesPerSecond(), n.updatesPerSecond()),
                    f.updatesPerSecond() >= 0.9 * n.updatesPerSecond()));
            }
        });
        for (BenchFigures f : figures) {
            checks.add(new Check(f.mode() + " snapshot equals the workload's model",
                f.snapshotRows() + " rows", f.snapshotEqualsModel()));
        }
        return checks;
    }

    private static Optional<BenchFigures> find(List<BenchFigures> figures, String mode) {
        return figures.stream().filter(f -> f.mode().equals(mode)).findFirst();
    }

    private static String fmt(double v) {
        return String.format("%.2f", v);
    }

    private static String ratio(double v, double base) {
        return String.format("%.2f vs none %.2f = %.2fx", v, base, base == 0 ? Double.NaN : v / base);
    }
}
