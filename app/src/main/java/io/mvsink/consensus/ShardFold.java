package io.mvsink.consensus;

import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.codec.Codecs;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Folds one shard's consensus records, in log order, into the shard's current state as they are
 * read, so that a reader holds the live shard (its newest rollup and the diffs after it), never
 * the history the log cleaner has not removed yet.
 *
 * <p>Per record: a diff that continues the state is applied; a rollup at or past the state's seqno
 * replaces it (the appender writes a rollup right after the diff of its seqno, so on an uncleaned
 * log the fold meets each rollup at the seqno it has reached and takes it, which drops the blobs
 * retired before the rollup's grace as the topic's own rebuild would); tombstones and diffs at or
 * below the state's seqno are skipped. A diff past the next seqno means the ones in between were
 * cleaned away: a rollup that covers them comes later in the log. On a topic of one partition
 * (one log order for every record of the shard) such a diff is also covered by that rollup and is
 * dropped; on several partitions it is held until the state reaches it or a rollup passes it.
 *
 * <p>The state changes only by whole records, each a complete compare-and-append (a diff) or a
 * complete state (a rollup), and {@link ShardState#apply} checks before it changes anything, so
 * between two calls the state is always one the shard had. Not thread-safe.
 */
public final class ShardFold {
    private final String shard;
    private final boolean ordered;
    private final String graceKey;
    private final TreeMap<Long, StateDiff> pending = new TreeMap<>();
    private ShardState state;
    private ShardGrace grace;
    private long records;

    /**
     * A fold from {@code state}.
     *
     * @param ordered whether every record of the shard comes in the order it was written (a topic of
     *     one partition): diffs past a gap are then dropped rather than held
     */
    public ShardFold(ShardState state, boolean ordered) {
        this.shard = state.shard();
        this.ordered = ordered;
        this.graceKey = ConsensusKeys.grace(shard);
        this.state = state;
    }

    /** A fold from the empty shard. */
    public static ShardFold of(String shard, boolean ordered) {
        return new ShardFold(new ShardState(shard), ordered);
    }

    /**
     * Takes one record of the consensus topic (any shard's: others are skipped); returns how far it
     * moved the upper, one step per applied seal (a compaction moves nothing and yields none).
     */
    public List<ShardFollower.Advance> accept(String key, byte[] value) {
        if (graceKey.equals(key)) {
            grace = value == null ? null : ShardGrace.of(Codecs.GRACE.decode(value));
            state.recordGrace(grace);
            return List.of();
        }
        if (!shard.equals(ConsensusKeys.shardOf(key))) {
            return List.of();
        }
        records++;
        long seqno = ConsensusKeys.seqnoOf(key);
        if (value == null || seqno < 0) {
            return List.of();
        }
        List<ShardFollower.Advance> steps = new ArrayList<>();
        if (seqno == 0) {
            takeRollup(Codecs.STATE_ROLLUP.decode(value), steps);
        } else if (seqno > state.seqno()) {
            if (seqno == state.seqno() + 1 || !ordered) {
                pending.put(seqno, Codecs.STATE_DIFF.decode(value));
            }
        }
        applyPending(steps);
        return steps;
    }

    /** The shard's state as of the last record taken. */
    public ShardState state() {
        return state;
    }

    /** The shard's records taken so far (tombstones included; the grace record not). */
    public long records() {
        return records;
    }

    private void takeRollup(StateRollup rollup, List<ShardFollower.Advance> steps) {
        if (rollup.getSeqno() < state.seqno()) {
            return;
        }
        long lower = state.upper();
        state = ShardState.of(rollup);
        state.recordGrace(grace);
        pending.headMap(rollup.getSeqno(), true).clear();
        if (state.upper() > lower) {
            steps.add(new ShardFollower.Advance(rollup.getSeqno(), lower, state.upper()));
        }
    }

    private void applyPending(List<ShardFollower.Advance> steps) {
        while (!pending.isEmpty() && pending.firstKey() == state.seqno() + 1) {
            StateDiff diff = pending.pollFirstEntry().getValue();
            long lower = state.upper();
            state.apply(diff);
            if (state.upper() > lower) {
                steps.add(new ShardFollower.Advance(diff.getSeqno(), lower, state.upper()));
            }
        }
    }
}
