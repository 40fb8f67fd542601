package io.mvsink.read;

import io.mvsink.avro.Batch;
import io.mvsink.consensus.CoverCheck;
import io.mvsink.time.TimeRange;
import io.mvsink.consensus.ShardFollower.Advance;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of advances that a {@link Subscription} reads in one pass: the updates of {@code [lower, upper)} from
 * {@code batches}, the live batches that cover it, cut at each advance's upper. A poll's advances are cut into
 * pieces at every upper no live batch straddles, so that a seal is delivered as soon as its own batches are read
 * (not after every seal of the poll), and yet each batch is read once: a batch that a merge made of several seals'
 * batches keeps those seals in one piece.
 */
record Piece(long lower, long upper, List<Batch> batches, List<Advance> advances) {

    /**
     * The pieces of {@code advances} (contiguous, in order) above {@code from}, the upper delivered so far, read
     * from {@code state}'s live batches; advances at or below {@code from} are left out.
     */
    static List<Piece> plan(ShardState state, long from, List<Advance> advances) {
        List<TimeRange> ranges = new ArrayList<>();
        List<Batch> live = new ArrayList<>(state.batches());
        for (Batch batch : live) {
            ranges.add(CoverCheck.range(List.of(batch)));
        }
        List<Piece> pieces = new ArrayList<>();
        List<Advance> run = new ArrayList<>();
        long lower = from;
        for (Advance advance : advances) {
            if (advance.upper() <= from) {
                continue;
            }
            run.add(advance);
            if (!straddled(ranges, advance.upper())) {
                pieces.add(new Piece(lower, advance.upper(), covering(live, ranges, lower, advance.upper()),
                    List.copyOf(run)));
                run.clear();
                lower = advance.upper();
            }
        }
        if (!run.isEmpty()) {
            long upper = run.get(run.size() - 1).upper();
            pieces.add(new Piece(lower, upper, covering(live, ranges, lower, upper), List.copyOf(run)));
        }
        return pieces;
    }

    /** Whether a batch holds times on both sides of {@code cut}. */
    private static boolean straddled(List<TimeRange> ranges, long cut) {
        for (TimeRange range : ranges) {
            if (range.lower() < cut && range.upper() > cut) {
                return true;
            }
        }
        return false;
    }

    private static List<Batch> covering(List<Batch> live, List<TimeRange> ranges, long lower, long upper) {
        List<Batch> covering = new ArrayList<>();
        for (int i = 0; i < live.size(); i++) {
            if (ranges.get(i).overlaps(lower, upper)) {
                covering.add(live.get(i));
            }
        }
        return covering;
    }
}
