package io.mvsink.batch;

import io.mvsink.time.TimeRange;
import java.util.List;

/**
 * The updates of one input partition for {@code [lower, upper)}, in time order, as read from
 * the partition's correction buffer, or one chunk of them: a large range is handed over in
 * chunks, so that no one holds all of it in the heap ({@code last} marks the final chunk). A deterministic function of the partition's input: contributing it again gives
 * the same updates (those of one time perhaps in another order).
 *
 * <p>{@code closedAtMs}: wall-clock time at which the task closed the range (seal latency starts
 * here); {@code last}: whether this is the range's last chunk (the whole range, when it is the only
 * one). Immutable; its size is counted once (the coalescer asks for it on every hand-over and
 * release).
 */
public final class ContributionData {
    private final String shard;
    private final int partition;
    private final TimeRange range;
    private final List<Update> updates;
    private final long closedAtMs;
    private final boolean last;
    private final long approximateBytes;

    /** The whole range in one piece. */
    public ContributionData(String shard, int partition, TimeRange range, List<Update> updates, long closedAtMs) {
        this(shard, partition, range, updates, closedAtMs, true);
    }

    public ContributionData(String shard, int partition, TimeRange range, List<Update> updates, long closedAtMs,
                            boolean last) {
        if (range.isEmpty()) {
            throw new IllegalArgumentException("empty range " + range + " for partition "
                + partition + " of shard " + shard);
        }
        this.shard = shard;
        this.partition = partition;
        this.range = range;
        this.updates = List.copyOf(updates);
        this.closedAtMs = closedAtMs;
        this.last = last;
        long bytes = 64;
        for (Update u : this.updates) {
            bytes += u.row().length + 10;
        }
        this.approximateBytes = bytes;
    }

    public String shard() {
        return shard;
    }

    public int partition() {
        return partition;
    }

    public TimeRange range() {
        return range;
    }

    public List<Update> updates() {
        return updates;
    }

    public long closedAtMs() {
        return closedAtMs;
    }

    public boolean last() {
        return last;
    }

    public long lower() {
        return range.lower();
    }

    public long upper() {
        return range.upper();
    }

    /**
     * Encoded bytes of the rows plus times and diffs, roughly what the parts will hold, plus a
     * fixed overhead so that even empty contributions count against the builder's bound.
     */
    public long approximateBytes() {
        return approximateBytes;
    }

    @Override
    public String toString() {
        return "ContributionData[shard=" + shard + ", partition=" + partition + ", range=" + range + ", updates="
            + updates.size() + ", closedAtMs=" + closedAtMs + ", last=" + last + "]";
    }
}
