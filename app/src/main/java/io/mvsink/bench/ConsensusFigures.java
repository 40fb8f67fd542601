package io.mvsink.bench;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import java.util.List;

/**
 * What a shard's consensus topic says about its appends: read from the topic itself, not from
 * the app's counters, so that it is the record the readers see.
 */
record ConsensusFigures(long appends, long intervals, long batches, long parts, long diffBytes) {

    /**
     * Figures of {@code diffs} (one shard, seqno order). An append covers {@code (upper - lower) /
     * intervalMs} grid intervals; the first append, from the initial upper 0, counts as one.
     */
    static ConsensusFigures of(List<StateDiff> diffs, long intervalMs) {
        long intervals = 0;
        long batches = 0;
        long parts = 0;
        long bytes = 0;
        for (StateDiff diff : diffs) {
            intervals += diff.getLower() == 0 ? 1 : Math.max(1, (diff.getUpper() - diff.getLower()) / intervalMs);
            batches += diff.getAdded().size();
            for (Batch batch : diff.getAdded()) {
                parts += batch.getParts().size();
            }
            bytes += Codecs.STATE_DIFF.encode(diff).length;
        }
        return new ConsensusFigures(diffs.size(), intervals, batches, parts, bytes);
    }
}
