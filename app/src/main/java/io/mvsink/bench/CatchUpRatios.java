package io.mvsink.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ratios of the catch-up JSON: every run's updates/s (from launch and from the first
 * append) and CPU per update over the plain Streams app's, and barrier's updates/s on the fine
 * grid over the wide grid's. A ratio with a missing or zero base is null.
 */
final class CatchUpRatios {
    private CatchUpRatios() {
    }

    static Map<String, Object> of(List<CatchUpFigures> figures, CatchUpOptions options) {
        Map<String, Object> ratios = new LinkedHashMap<>();
        Optional<CatchUpFigures> reference = CatchUpFigures.find(figures, CatchUpFigures.REFERENCE, 0);
        Map<String, Object> toReference = new LinkedHashMap<>();
        for (CatchUpFigures f : figures) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("updates_per_second_from_launch", reference.map(b ->
                ratio(f.updatesPerSecondFromLaunch(), b.updatesPerSecondFromLaunch())).orElse(null));
            r.put("updates_per_second_from_first_append", reference.map(b ->
                ratio(f.updatesPerSecondFromFirst(), b.updatesPerSecondFromFirst())).orElse(null));
            r.put("cpu_per_update", reference.map(b ->
                ratio(f.cpuSecondsPerMillion(), b.cpuSecondsPerMillion())).orElse(null));
            toReference.put(f.name(), r);
        }
        ratios.put("to_plain_streams_app", toReference);
        Optional<CatchUpFigures> fine = CatchUpFigures.find(figures, "barrier", options.intervalMs());
        Optional<CatchUpFigures> wide = CatchUpFigures.find(figures, "barrier", options.wideIntervalMs());
        ratios.put("barrier_fine_to_wide_grid_updates_per_second", fine.flatMap(f -> wide.map(w ->
            ratio(f.updatesPerSecondFromLaunch(), w.updatesPerSecondFromLaunch()))).orElse(null));
        return ratios;
    }

    /** {@code value / base}, or null when either is not a finite number or the base is not positive. */
    static Double ratio(double value, double base) {
        return Double.isFinite(value) && Double.isFinite(base) && base > 0 ? value / base : null;
    }

}
