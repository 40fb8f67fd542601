package io.mvsink.metrics;

import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Latencies counted into fixed buckets since the app started, in seconds: the shape Prometheus
 * aggregates across instances ({@code histogram_quantile} over the summed buckets), unlike a
 * percentile, which cannot be averaged. Recording costs one bucket search and two adds; reading
 * never changes anything. Thread-safe.
 */
public final class LatencyHistogram {
    /**
     * The buckets' upper bounds (seconds, inclusive): from well under a 1 s batch interval to half
     * an hour, so that seals on a 1 s grid and on a 10 min grid both land in buckets that tell them
     * apart. A latency above the last lands in the implicit {@code +Inf} bucket.
     */
    public static final List<Double> SEAL_BOUNDS_SECONDS = List.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
        30.0, 60.0, 120.0, 300.0, 600.0, 1800.0);

    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sumSeconds = new DoubleAdder();

    /** A histogram with {@code boundsSeconds} (ascending) and one more bucket above the last. */
    public LatencyHistogram(List<Double> boundsSeconds) {
        bounds = boundsSeconds.stream().mapToDouble(Double::doubleValue).toArray();
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("bucket bounds must ascend: " + boundsSeconds);
            }
        }
        counts = new LongAdder[bounds.length + 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one latency of {@code latencyMs} milliseconds (a negative one as 0). */
    public void record(long latencyMs) {
        double seconds = Math.max(0, latencyMs) / 1000.0;
        int bucket = 0;
        while (bucket < bounds.length && seconds > bounds[bucket]) {
            bucket++;
        }
        sumSeconds.add(seconds);
        counts[bucket].increment();
    }

    /** What it has counted so far. */
    public Snapshot snapshot() {
        long[] perBucket = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            perBucket[i] = counts[i].sum();
        }
        return new Snapshot(bounds.clone(), perBucket, sumSeconds.sum());
    }

    /**
     * Counts per bucket (not cumulative), the last one above every bound.
     *
     * @param boundsSeconds the upper bounds, one fewer than {@code counts}
     * @param counts latencies counted per bucket
     * @param sumSeconds the sum of every latency counted
     */
    public record Snapshot(double[] boundsSeconds, long[] counts, double sumSeconds) {
        /** Every latency counted. */
        public long count() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }
    }
}
