package io.mvsink.consensus;

import static io.mvsink.consensus.Diffs.batch;
import static io.mvsink.consensus.Diffs.c;
import static io.mvsink.consensus.Diffs.diff;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ShardFollower.Advance;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ShardFoldTest {

    @Test
    void shouldFoldAnUncleanedLogIntoTheStateTheCompactedLogHolds() {
        SealHistory history = new SealHistory("s", 250, 64, 7, 30);
        ShardFold uncleaned = ShardFold.of("s", true);
        Map<String, byte[]> compacted = new TreeMap<>();
        for (Map.Entry<String, byte[]> r : history) {
            uncleaned.accept(r.getKey(), r.getValue());
            compacted.put(r.getKey(), r.getValue());
        }
        ShardFold cleaned = ShardFold.of("s", true);
        compacted.forEach(cleaned::accept);

        assertEquals(history.upper(), uncleaned.state().upper());
        assertEquals(cleaned.state().seqno(), uncleaned.state().seqno());
        assertEquals(ids(cleaned.state()), ids(uncleaned.state()));
        assertEquals(cleaned.state().retired(), uncleaned.state().retired());
        assertEquals(history.records(), uncleaned.records());
    }

    @Test
    void shouldDropADiffPastAGapOnOnePartitionAndTakeTheRollupThatCoversIt() {
        List<StateDiff> seals = seals(5);
        ShardState atFour = new ShardState("s");
        seals.subList(0, 4).forEach(atFour::apply);
        ShardFold fold = ShardFold.of("s", true);

        // seqnos 1 and 2 were cleaned away; 3 and 4 wait for their tombstones, written after the rollup
        assertEquals(List.of(), fold.accept(ConsensusKeys.diff("s", 3), Codecs.STATE_DIFF.encode(seals.get(2))));
        assertEquals(List.of(), fold.accept(ConsensusKeys.diff("s", 4), Codecs.STATE_DIFF.encode(seals.get(3))));
        assertEquals(0, fold.state().seqno(), "nothing applied past the gap");
        List<Advance> jump = fold.accept(ConsensusKeys.rollup("s"), Codecs.STATE_ROLLUP.encode(atFour.rollup(0, 0)));
        List<Advance> next = fold.accept(ConsensusKeys.diff("s", 5), Codecs.STATE_DIFF.encode(seals.get(4)));

        assertEquals(List.of(new Advance(4, 0, 400)), jump);
        assertEquals(List.of(new Advance(5, 400, 500)), next);
        assertEquals(5, fold.state().seqno());
    }

    @Test
    void shouldHoldADiffPastAGapOverSeveralPartitionsUntilItsPredecessorComes() {
        List<StateDiff> seals = seals(2);
        ShardFold fold = ShardFold.of("s", false);

        assertEquals(List.of(), fold.accept(ConsensusKeys.diff("s", 2), Codecs.STATE_DIFF.encode(seals.get(1))));
        List<Advance> both = fold.accept(ConsensusKeys.diff("s", 1), Codecs.STATE_DIFF.encode(seals.get(0)));

        assertEquals(List.of(new Advance(1, 0, 100), new Advance(2, 100, 200)), both);
    }

    @Test
    void shouldIgnoreAnOlderRollupAndOtherShardsRecords() {
        List<StateDiff> seals = seals(3);
        ShardState atOne = new ShardState("s");
        atOne.apply(seals.get(0));
        ShardFold fold = ShardFold.of("s", false);
        seals.forEach(d -> fold.accept(ConsensusKeys.diff("s", d.getSeqno()), Codecs.STATE_DIFF.encode(d)));

        fold.accept(ConsensusKeys.rollup("s"), Codecs.STATE_ROLLUP.encode(atOne.rollup(0, 0)));
        fold.accept(ConsensusKeys.diff("other", 4), Codecs.STATE_DIFF.encode(seals.get(0)));

        assertEquals(3, fold.state().seqno());
        assertEquals(300, fold.state().upper());
        assertEquals(4, fold.records(), "three diffs and the rollup");
    }

    private static List<String> ids(ShardState state) {
        return state.batches().stream().map(Batch::getBatchId).sorted().toList();
    }

    /** Seals 1..n of one partition, each over the next 100 ms. */
    private static List<StateDiff> seals(int n) {
        return LongStream.rangeClosed(1, n)
            .mapToObj(s -> diff(s, (s - 1) * 100, s * 100, 1, batch("b" + s, c(0, (s - 1) * 100, s * 100))))
            .toList();
    }
}
