package io.mvsink.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Formats the catch-up figures: one row per program, with its ratios to the plain Streams app. */
final class CatchUpTable {
    private static final String ROW = "%-22s %10s %10s %7s %7s %9s %9s %10s %8s %9s %6s %6s %8s %11s %11s %s%n";

    private CatchUpTable() {
    }

    static String format(List<CatchUpFigures> figures) {
        Optional<CatchUpFigures> reference = figures.stream()
            .filter(f -> f.program().equals(CatchUpFigures.REFERENCE)).findFirst();
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, ROW, "run", "updates/s", "from 1st", "to 1st", "seals", "blob PUTs",
            "PUTs/seal", "batches/ap", "CPU s", "CPU s/M", "CPU %", "mach %", "RSS MB", "x updates/s", "x CPU/upd", "snapshot"));
        out.append(String.format(Locale.ROOT, ROW, "", "(launch)", "append", "s", "", "", "", "", "", "", "avg", "avg", "max",
            "vs Streams", "vs Streams", ""));
        for (CatchUpFigures f : figures) {
            boolean sink = f.isMvsink();
            out.append(String.format(Locale.ROOT, ROW, f.name() + (f.completed() ? "" : " (INCOMPLETE)"),
                num(f.updatesPerSecondFromLaunch(), "%.0f"), num(f.updatesPerSecondFromFirst(), "%.0f"),
                num(f.secondsToFirst(), "%.1f"), sink ? Long.toString(f.seals().seals()) : "-", sink ? Long.toString(f.seals().blobsStored()) : "-",
                sink ? num(f.seals().putsPerSeal(), "%.2f") : "-", sink ? num(f.seals().batchesPerSeal(), "%.2f") : "-",
                num(f.usage().cpuSeconds(), "%.1f"), num(f.cpuSecondsPerMillion(), "%.1f"),
                num(f.coresBusy() * 100, "%.0f"), num(f.machineCoresBusy() * 100, "%.0f"),
                num(f.usage().maxRssKb() / 1024.0, "%.0f"),
                reference.map(r -> ratio(f.updatesPerSecondFromLaunch(), r.updatesPerSecondFromLaunch())).orElse("-"),
                reference.map(r -> ratio(f.cpuSecondsPerMillion(), r.cpuSecondsPerMillion())).orElse("-"),
                sink ? (f.snapshot().equalsModel() ? "equals model" : "DIFFERS") + " (" + f.snapshot().rows() + " rows)"
                    : ""));
        }
        return out.toString();
    }

    static String ratio(double value, double base) {
        Double ratio = CatchUpRatios.ratio(value, base);
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String num(double v, String format) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "-";
    }
}
