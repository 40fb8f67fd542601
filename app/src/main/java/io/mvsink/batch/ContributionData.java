package io.mvsink.batch;

import io.mvsink.time.TimeRange;
import java.util.List;

/**
 * The updates of one input partition for {@code [lower, upper)}, in time order, as read from the partition's correction buffer, or one chunk of them: a large range is
 * handed over in chunks, so that no one holds all of it in the heap ({@code last} marks the
 * final chunk). A deterministic function of the partition's input: contributing it again gives
 * the same updates (those of one time perhaps in another order).
 *
 * @param closedAtMs wall-clock time at which the task closed the range (seal latency starts here)
 * @param last whether this is the range's last chunk (the whole range, when it is the only one)
 */
public record ContributionData(String shard, int partition, TimeRange range,
                               List<Update> updates, long closedAtMs, boolean last) {
    /** The whole range in one piece. */
    public ContributionData(String shard, int partition, TimeRange range, List<Update> updates, long closedAtMs) {
        this(shard, partition, range, updates, closedAtMs, true);
    }

    public ContributionData {
        if (range.isEmpty()) {
            throw new IllegalArgumentException("empty range " + range + " for partition "
                + partition + " of shard " + shard);
        }
        updates = List.copyOf(updates);
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
        long bytes = 64;
        for (Update u : updates) {
            bytes += u.row().length + 10;
        }
        return bytes;
    }
}
