package io.mvsink.topology;

import io.mvsink.protocol.Grid;
import io.mvsink.protocol.BufferedBytes;
import java.util.Map;
import java.util.TreeMap;

/**
 * Approximate bytes a task's correction buffer holds per grid interval (what an update adds when it
 * arrives; retractions are not subtracted), for the minter's range target. Written by the task's
 * stream thread, read by the minter under the batch coalescer's lock from any stream thread: the
 * methods synchronize. Kept in memory; a task rebuilds it from its buffer when it starts.
 */
final class IntervalBytes implements BufferedBytes {
    private final Grid grid;
    private final TreeMap<Long, long[]> bytes = new TreeMap<>();
    private long lastInterval = Long.MIN_VALUE;
    private long[] last;

    IntervalBytes(Grid grid) {
        this.grid = grid;
    }

    synchronized void add(long time, long size) {
        long interval = grid.floor(time);
        if (interval != lastInterval) {
            last = bytes.computeIfAbsent(interval, k -> new long[1]);
            lastInterval = interval;
        }
        last[0] += size;
    }

    /** Forgets the intervals below {@code upper} (a grid point): they are sealed and trimmed. */
    synchronized void trimBelow(long upper) {
        bytes.headMap(upper).clear();
        if (lastInterval < upper) {
            lastInterval = Long.MIN_VALUE;
            last = null;
        }
    }

    @Override
    public synchronized long between(long lower, long upper) {
        long sum = 0;
        for (Map.Entry<Long, long[]> e : bytes.subMap(lower, upper).entrySet()) {
            sum += e.getValue()[0];
        }
        return sum;
    }
}
