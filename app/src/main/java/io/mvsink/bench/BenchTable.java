package io.mvsink.bench;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Formats the bench's figures: one row per figure, one column per mode, with its ratio to {@code none}. */
final class BenchTable {
    private record Row(String name, String format, ToDoubleFunction<BenchFigures> value) {
    }

    private static final List<Row> ROWS = List.of(
        new Row("blob write requests / interval sealed", "%.2f", BenchFigures::blobWritesPerInterval),
        new Row("batches / append", "%.2f", BenchFigures::batchesPerAppend),
        new Row("parts / append", "%.2f", BenchFigures::partsPerAppend),
        new Row("consensus diff bytes / append", "%.0f", BenchFigures::diffBytesPerAppend),
        new Row("updates / s (producing phase)", "%.0f", BenchFigures::updatesPerSecond),
        new Row("updates sent / s (producer)", "%.0f", BenchFigures::sentPerSecond),
        new Row("seal latency p50 (ms)", "%.0f", f -> f.sealP50Ms()),
        new Row("seal latency p99 (ms)", "%.0f", f -> f.sealP99Ms()),
        new Row("appends", "%.0f", f -> f.appends()),
        new Row("intervals sealed", "%.0f", f -> f.intervalsSealed()),
        new Row("blob write requests", "%.0f", f -> f.blobWriteRequests()),
        new Row("participants / batch built", "%.2f", BenchFigures::participantsPerBatch),
        new Row("barrier timeouts", "%.0f", f -> f.barrierTimeouts()),
        new Row("re-contributions", "%.0f", f -> f.recontributions()),
        new Row("compare-and-append mismatches", "%.0f", f -> f.mismatches()),
        new Row("builder refusals", "%.0f", f -> f.builderRefusals()),
        new Row("orphaned batches", "%.0f", f -> f.orphanedBatches()),
        new Row("snapshot rows", "%.0f", f -> f.snapshotRows()));

    private static final int NAME_WIDTH = 38;
    private static final int CELL_WIDTH = 22;

    private BenchTable() {
    }

    static String format(List<BenchFigures> figures) {
        Optional<BenchFigures> none = figures.stream().filter(f -> f.mode().equals("none")).findFirst();
        StringBuilder out = new StringBuilder();
        out.append(pad("figure (ratio to none)", NAME_WIDTH));
        figures.forEach(f -> out.append(pad(f.mode(), CELL_WIDTH)));
        out.append('\n');
        for (Row row : ROWS) {
            out.append(pad(row.name(), NAME_WIDTH));
            for (BenchFigures f : figures) {
                double v = row.value().applyAsDouble(f);
                String cell = String.format(row.format(), v);
                if (none.isPresent() && none.get() != f) {
                    double base = row.value().applyAsDouble(none.get());
                    cell += base == 0 ? " (-)" : String.format(" (%.2fx)", v / base);
                }
                out.append(pad(cell, CELL_WIDTH));
            }
            out.append('\n');
        }
        out.append(pad("snapshot equals model", NAME_WIDTH));
        figures.forEach(f -> out.append(pad(f.snapshotEqualsModel() ? "yes" : "NO", CELL_WIDTH)));
        out.append('\n');
        return out.toString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }
}
