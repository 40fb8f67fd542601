package io.mvsink.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * What the coalescer counts JVM-wide, guarded by its lock: contribution bytes handed to builders and
 * not yet written (JVM-wide and per shard, against the JVM's bound: over it, a task keeps its
 * contribution in its buffer), builders not yet retired, and orphaned batches. Builders release
 * the bytes they wrote or discarded.
 */
final class Totals {
    /** A task hands over a range at most this many bytes at a time (less under a small queue bound). */
    static final long CHUNK_BYTES = 1L << 20;

    private final long max;
    private long total;
    private final Map<String, Long> byShard = new HashMap<>();
    private final Map<String, Integer> liveByShard = new HashMap<>();
    private int live;
    private long orphaned;

    Totals(long max) {
        this.max = max;
    }

    /** Whether {@code size} more bytes go over the bound (an empty queue takes anything). */
    boolean refuses(long size) {
        return total > 0 && total + size > max;
    }

    /** False while the queue is at its bound: an offer now would be refused. */
    boolean accepting() {
        return total == 0 || total < max;
    }

    void queue(String shard, long bytes) {
        total += bytes;
        byShard.merge(shard, bytes, (a, b) -> a + b == 0 ? null : a + b);
    }

    long queued() {
        return total;
    }

    long queued(String shard) {
        return byShard.getOrDefault(shard, 0L);
    }

    /** A part of the bound, so that several tasks' chunks fit the queue at once. */
    long chunkBytes() {
        return Math.max(1024, Math.min(CHUNK_BYTES, max / 8));
    }

    void opened(String shard) {
        live++;
        liveByShard.merge(shard, 1, Integer::sum);
    }

    void retired(String shard) {
        live--;
        liveByShard.merge(shard, -1, (a, b) -> a + b == 0 ? null : a + b);
    }

    int live() {
        return live;
    }

    int live(String shard) {
        return liveByShard.getOrDefault(shard, 0);
    }

    void orphaned() {
        orphaned++;
    }

    long orphans() {
        return orphaned;
    }
}
