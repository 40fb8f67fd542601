package io.mvsink.metrics;

import java.util.Arrays;

/** The last {@code capacity} latencies, with percentiles over them and an all-time max. */
public final class LatencyRecorder {
    private final long[] ring;
    private long count;
    private long max;

    public LatencyRecorder(int capacity) {
        this.ring = new long[capacity];
    }

    public synchronized void record(long value) {
        ring[(int) (count % ring.length)] = value;
        count++;
        max = Math.max(max, value);
    }

    /** The {@code p}-th percentile (0..100) of the recorded window; 0 when empty. */
    public synchronized long percentile(double p) {
        int n = (int) Math.min(count, ring.length);
        if (n == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(ring, n);
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * n) - 1;
        return sorted[Math.max(0, Math.min(n - 1, index))];
    }

    public synchronized long max() {
        return max;
    }

    public synchronized long count() {
        return count;
    }
}
