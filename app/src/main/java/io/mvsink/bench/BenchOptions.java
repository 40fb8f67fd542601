package io.mvsink.bench;

import io.mvsink.batch.CoalescingMode;
import java.nio.file.Path;
import java.util.List;

/**
 * What one {@code mvsink bench} run does: the same workload, once per coalescing mode, on one
 * local stack.
 *
 * @param durationSeconds seconds of producing per mode
 * @param rate            updates per second the producer sends
 * @param partitions      partitions of each mode's corrections topic
 * @param threads         stream threads of the app
 * @param modes           the modes, run in this order; ratios are taken against {@code none}
 * @param intervalMs      {@code batch.interval.ms}
 * @param out             where the JSON result goes
 */
public record BenchOptions(long durationSeconds, double rate, int partitions, int threads,
                           List<CoalescingMode> modes, long intervalMs, Path out) {
    public BenchOptions {
        if (durationSeconds < 1 || rate <= 0 || partitions < 1 || threads < 1 || intervalMs < 1 || modes.isEmpty()) {
            throw new IllegalArgumentException("bench options must be positive and name at least one mode: " + this);
        }
        modes = List.copyOf(modes);
    }
}
