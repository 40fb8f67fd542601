package io.mvsink.bench;

import io.mvsink.protocol.CoalescingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one catch-up bench does: preload {@code updates} once, then time the plain consumer, the
 * reference Streams app (unless skipped) and mvsink from scratch in each of {@code modes} on the
 * {@code intervalMs} grid, then barrier on the {@code wideIntervalMs} grid (0: not run) in a JVM
 * limited to {@code wideHeap}; all of it once per workload of {@code workloads}, in order, each on a
 * topic of its own.
 *
 * @param updatesPerStep updates between two progress records; a step's event time spans 1 or 2
 *                       {@code intervalMs} grid intervals
 * @param runTimeout     how long one program may take to catch up before it counts as not completed
 * @param subscribe      follow each mvsink run's shard with a {@link SubscriberProbe} in the bench's JVM
 * @param workloads      the workloads to run, each with the full set of runs
 */
public record CatchUpOptions(long updates, int partitions, int threads, List<CoalescingMode> modes,
                             long intervalMs, long wideIntervalMs, String wideHeap, int updatesPerStep,
                             boolean skipReference, Duration runTimeout, Path out, boolean subscribe,
                             List<CatchUpWorkload> workloads, String heap) {
    public CatchUpOptions {
        if (updates < 1 || partitions < 1 || threads < 1 || intervalMs < 1 || wideIntervalMs < 0 || updatesPerStep < 1
            || runTimeout.isNegative() || runTimeout.isZero()) {
            throw new IllegalArgumentException("catch-up bench options must be positive: " + this);
        }
        if (wideIntervalMs > 0 && wideIntervalMs % intervalMs != 0) {
            throw new IllegalArgumentException("--wide-interval-ms " + wideIntervalMs
                + " must be a multiple of --interval-ms " + intervalMs);
        }
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("catch-up bench: no workload to run");
        }
        modes = List.copyOf(modes);
        workloads = List.copyOf(workloads);
    }

    /** The grid the preload's final upper is aligned to, so that every run can seal every update. */
    long alignMs() {
        return Math.max(intervalMs, wideIntervalMs);
    }
}
