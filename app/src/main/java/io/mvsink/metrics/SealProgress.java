package io.mvsink.metrics;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a shard's seals stand as this JVM's tasks see them: the highest sealed upper seen, when it
 * last rose, and each local task's closed frontier. Written by the tasks' punctuations, read by
 * health checks and gauges. Thread-safe.
 */
public final class SealProgress {
    private final Map<Integer, Long> closed = new ConcurrentHashMap<>();
    private long sealedUpper = -1;
    private long risenAtMs;

    /** A task of {@code partition} sees the shard sealed up to {@code sealed} and its own input closed up to {@code closedUpTo}. */
    public synchronized void observed(int partition, long sealed, long closedUpTo, long nowMs) {
        closed.put(partition, closedUpTo);
        if (sealed > sealedUpper) {
            sealedUpper = sealed;
            risenAtMs = nowMs;
        } else if (sealedUpper < 0) {
            risenAtMs = nowMs;
        }
    }

    /** The task of {@code partition} left this JVM. */
    public void left(int partition) {
        closed.remove(partition);
    }

    /** The highest sealed upper a local task has seen; -1 before any. */
    public synchronized long sealedUpper() {
        return sealedUpper;
    }

    /** When the sealed upper last rose (or was first seen), by the tasks' clock. */
    public synchronized long risenAtMs() {
        return risenAtMs;
    }

    /** The highest closed frontier among the local tasks, if any runs here. */
    public OptionalLong maxClosed() {
        return closed.values().stream().mapToLong(Long::longValue).max();
    }

    /** The smallest closed frontier among the local tasks, if any runs here. */
    public OptionalLong minClosed() {
        return closed.values().stream().mapToLong(Long::longValue).min();
    }

    /**
     * Whether the shard's seals have stopped while there is closed input to seal: some local
     * task closed its input past the sealed upper, and the sealed upper has not risen for
     * {@code stallMs}. Idle input (nothing closed above the sealed upper) is never a stall.
     */
    public synchronized boolean stalled(long nowMs, long stallMs) {
        OptionalLong max = maxClosed();
        return sealedUpper >= 0 && max.isPresent() && max.getAsLong() > sealedUpper && nowMs - risenAtMs >= stallMs;
    }
}
