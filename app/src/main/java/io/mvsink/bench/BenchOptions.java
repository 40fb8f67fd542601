package io.mvsink.bench;

import io.mvsink.protocol.CoalescingMode;
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
 * @param warmupSeconds   seconds of an unmeasured run of the first mode before the measured ones
 *                        (0: none), so that no mode pays for the JVM's and the stack's warm-up
 * @param subscribe       follow each mode's shard with a {@link SubscriberProbe} and report its lag
 */
public record BenchOptions(long durationSeconds, double rate, int partitions, int threads,
                           List<CoalescingMode> modes, long intervalMs, Path out, long warmupSeconds,
                           boolean subscribe) {
    public BenchOptions {
        if (durationSeconds < 1 || rate <= 0 || partitions < 1 || threads < 1 || intervalMs < 1 || warmupSeconds < 0 || modes.isEmpty()) {
            throw new IllegalArgumentException("bench options must be positive and name at least one mode: " + this);
        }
        modes = List.copyOf(modes);
    }

    /** The same run for {@code seconds} of producing. */
    public BenchOptions withDuration(long seconds) {
        return new BenchOptions(seconds, rate, partitions, threads, modes, intervalMs, out, warmupSeconds, subscribe);
    }
}
