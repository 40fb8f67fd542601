package io.mvsink.batch;

import java.util.List;

/**
 * The updates of one input partition for {@code [lower, upper)}, in (time, schema id, row)
 * order, as read from the partition's correction buffer. A deterministic function of the
 * partition's input: contributing it again gives the same updates.
 *
 * @param closedAtMs wall-clock time at which the task closed the range (seal latency starts here)
 */
public record ContributionData(String shard, int partition, long lower, long upper,
                               List<Update> updates, long closedAtMs) {
    public ContributionData {
        if (lower >= upper) {
            throw new IllegalArgumentException("empty range [" + lower + ", " + upper + ") for partition "
                + partition + " of shard " + shard);
        }
        updates = List.copyOf(updates);
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
