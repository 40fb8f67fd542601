package io.mvsink.consensus;

import static io.mvsink.consensus.Diffs.batch;
import static io.mvsink.consensus.Diffs.c;
import static io.mvsink.consensus.Diffs.diff;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardStateTest {
    private final ShardState state = new ShardState("s");

    @Test
    void shouldStartEmptyAtZero() {
        assertEquals(0, state.upper());
        assertEquals(0, state.seqno());
        assertTrue(state.batches().isEmpty());
    }

    @Test
    void shouldApplyDiffsInSeqnoOrder() {
        Batch first = batch("b1", c(0, 0, 1000), c(1, 0, 1000));
        Batch second = batch("b2", c(0, 1000, 3000), c(1, 1000, 3000));

        state.apply(diff(1, 0, 1000, 2, first));
        state.apply(diff(2, 1000, 3000, 2, second));

        assertEquals(3000, state.upper());
        assertEquals(2, state.seqno());
        assertEquals(2, state.partitionCount());
        assertEquals(List.of(first, second), List.copyOf(state.batches()));
    }

    @Test
    void shouldDropRemovedBatches() {
        state.apply(diff(1, 0, 1000, 1, batch("b1", c(0, 0, 1000))));
        StateDiff next = diff(2, 1000, 2000, 1, batch("b2", c(0, 1000, 2000)));
        next.setRemovedBatchIds(List.of("b1"));

        state.apply(next);

        assertEquals(List.of("b2"), state.batches().stream().map(Batch::getBatchId).toList());
    }

    @Test
    void shouldRefuseAGapInSeqnos() {
        state.apply(diff(1, 0, 1000, 1, batch("b1", c(0, 0, 1000))));

        assertRefusedWithoutChange(diff(3, 1000, 2000, 1, batch("b3", c(0, 1000, 2000))));
    }

    @Test
    void shouldRefuseAFirstDiffThatIsNotSeqnoOne() {
        assertRefusedWithoutChange(diff(2, 0, 1000, 1, batch("b", c(0, 0, 1000))));
        assertRefusedWithoutChange(diff(0, 0, 1000, 1, batch("b", c(0, 0, 1000))));
    }

    @Test
    void shouldRefuseADiffThatDoesNotContinueAtTheUpper() {
        state.apply(diff(1, 0, 1000, 1, batch("b1", c(0, 0, 1000))));

        assertRefusedWithoutChange(diff(2, 1500, 2000, 1, batch("b2", c(0, 1500, 2000))));
        assertRefusedWithoutChange(diff(2, 500, 2000, 1, batch("b2", c(0, 500, 2000))));
    }

    @Test
    void shouldRefuseADiffThatDoesNotAdvanceTheUpper() {
        state.apply(diff(1, 0, 1000, 1, batch("b1", c(0, 0, 1000))));

        assertRefusedWithoutChange(diff(2, 1000, 1000, 1));
        assertRefusedWithoutChange(diff(2, 1000, 500, 1));
    }

    @Test
    void shouldRefuseAnInexactCoverAndListItsProblems() {
        ConsensusCorruptException e = assertRefusedWithoutChange(
            diff(1, 0, 1000, 2, batch("b", c(0, 0, 1000))));

        assertTrue(e.getMessage().contains("partition 1"), e.getMessage());
        assertRefusedWithoutChange(diff(1, 0, 1000, 1, batch("b", c(0, 0, 1000)), batch("b'", c(0, 0, 1000))));
        assertRefusedWithoutChange(diff(1, 0, 1000, 1, batch("b", c(0, 0, 1000), c(1, 0, 1000))));
    }

    @Test
    void shouldRefuseADiffWithoutPartitions() {
        assertRefusedWithoutChange(diff(1, 0, 1000, 0));
    }

    @Test
    void shouldRefuseADiffThatChangesThePartitionCount() {
        state.apply(diff(1, 0, 1000, 3, batch("b1", c(0, 0, 1000), c(1, 0, 1000), c(2, 0, 1000))));

        assertRefusedWithoutChange(diff(2, 1000, 2000, 2, batch("b2", c(0, 1000, 2000), c(1, 1000, 2000))));
    }

    @Test
    void shouldReplaceAnExactCoverByAMergedBatchAndRetireItsParts() {
        Batch b1 = withPart(batch("b1", c(0, 0, 1000), c(1, 0, 1000)), "s/b1-0");
        Batch b2 = withPart(batch("b2", c(0, 1000, 2000)), "s/b2-0");
        Batch b3 = withPart(batch("b3", c(1, 1000, 2000)), "s/b3-0");
        state.apply(diff(1, 0, 1000, 2, b1));
        state.apply(diff(2, 1000, 2000, 2, b2, b3));
        Batch merged = withPart(batch("m", c(0, 0, 2000), c(1, 0, 2000)), "s/m-0");

        state.apply(compaction(3, 2000, 2, 7_000L, merged, "b1", "b2", "b3"));

        assertEquals(2000, state.upper(), "a compaction leaves the upper");
        assertEquals(3, state.seqno());
        assertEquals(List.of("m"), state.batches().stream().map(Batch::getBatchId).toList());
        assertEquals(java.util.Set.of("s/m-0"), state.referencedBlobs());
        assertEquals(java.util.Map.of("s/b1-0", 7_000L, "s/b2-0", 7_000L, "s/b3-0", 7_000L), state.retired());
    }

    @Test
    void shouldRefuseACompactionThatDoesNotReplaceAnExactCoverByOne() {
        state.apply(diff(1, 0, 1000, 2, batch("b1", c(0, 0, 1000), c(1, 0, 1000))));
        state.apply(diff(2, 1000, 2000, 2, batch("b2", c(0, 1000, 2000)), batch("b3", c(1, 1000, 2000))));

        // b2 alone is not an exact cover of [1000, 2000) (partition 1 is missing)
        assertRefusedWithoutChange(compaction(3, 2000, 2, 0L, batch("m", c(0, 1000, 2000), c(1, 1000, 2000)), "b2"));
        // the merged batch must cover what it replaces, no more and no less
        assertRefusedWithoutChange(compaction(3, 2000, 2, 0L, batch("m", c(0, 0, 2000), c(1, 0, 1500)), "b1", "b2", "b3"));
        assertRefusedWithoutChange(compaction(3, 2000, 2, 0L, batch("m", c(0, 1000, 2000), c(1, 1000, 2000)), "b1", "b2", "b3"));
        // a batch that is not live
        assertRefusedWithoutChange(compaction(3, 2000, 2, 0L, batch("m", c(0, 0, 1000), c(1, 0, 1000)), "gone"));
        // nothing to replace
        assertRefusedWithoutChange(compaction(3, 2000, 2, 0L, batch("m", c(0, 0, 1000), c(1, 0, 1000))));
    }

    @Test
    void shouldAdvanceSinceAndRefuseMovingItBackOrAboveTheUpper() {
        StateDiff first = diff(1, 0, 1000, 1, batch("b1", c(0, 0, 1000)));
        first.setSince(500L);
        state.apply(first);
        assertEquals(500, state.since());

        StateDiff back = diff(2, 1000, 2000, 1, batch("b2", c(0, 1000, 2000)));
        back.setSince(400L);
        assertRefusedWithoutChange(back);
        StateDiff above = diff(2, 1000, 2000, 1, batch("b2", c(0, 1000, 2000)));
        above.setSince(2500L);
        assertRefusedWithoutChange(above);
        assertEquals(500, state.since());
    }

    @Test
    void shouldRebuildFromARollupAsFromTheDiffsItCovers() {
        state.apply(diff(1, 0, 1000, 1, withPart(batch("b1", c(0, 0, 1000)), "s/b1-0")));
        state.apply(diff(2, 1000, 2000, 1, withPart(batch("b2", c(0, 1000, 2000)), "s/b2-0")));
        state.apply(compaction(3, 2000, 1, 5_000L, withPart(batch("m", c(0, 0, 2000)), "s/m-0"), "b1", "b2"));

        ShardState rebuilt = ShardState.of(state.rollup(9_000L, 5_000L));
        ShardState forgot = ShardState.of(state.rollup(9_000L, 5_001L));

        assertEquals(state.upper(), rebuilt.upper());
        assertEquals(state.seqno(), rebuilt.seqno());
        assertEquals(List.copyOf(state.batches()), List.copyOf(rebuilt.batches()));
        assertEquals(state.retired(), rebuilt.retired());
        assertTrue(forgot.retired().isEmpty(), "blobs retired before the cut are left out");
        rebuilt.apply(diff(4, 2000, 3000, 1, batch("b4", c(0, 2000, 3000))));
        assertEquals(3000, rebuilt.upper());
    }

    private static Batch withPart(Batch batch, String key) {
        batch.setParts(List.of(new io.mvsink.avro.Part(key, 1, 10L, 1L, null)));
        return batch;
    }

    private static StateDiff compaction(long seqno, long upper, int partitions, long at, Batch merged, String... removed) {
        StateDiff diff = diff(seqno, upper, upper, partitions, merged);
        diff.setRemovedBatchIds(List.of(removed));
        diff.setAppendedAtMs(at);
        return diff;
    }

    private ConsensusCorruptException assertRefusedWithoutChange(StateDiff diff) {
        long upper = state.upper();
        long seqno = state.seqno();
        List<Batch> batches = List.copyOf(state.batches());

        ConsensusCorruptException e = assertThrows(ConsensusCorruptException.class, () -> state.apply(diff));

        assertTrue(e.getMessage().contains("shard s"), e.getMessage());
        assertEquals(upper, state.upper());
        assertEquals(seqno, state.seqno());
        assertEquals(batches, List.copyOf(state.batches()));
        return e;
    }

    @Test
    void shouldKeepWhereThePartsLiveThroughDiffsAndRollupsAndRefuseADiffElsewhere() {
        ShardState state = new ShardState("s");
        StateDiff unrecorded = diff(1, 0, 10, 1, batch("a", c(0, 0, 10)));
        state.apply(unrecorded);
        assertEquals("", state.location(), "a diff written before the location was recorded says nothing");
        StateDiff first = diff(2, 10, 20, 1, batch("b", c(0, 10, 20)));
        first.setLocation("acct/chg");
        state.apply(first);
        assertEquals("acct/chg", state.location());
        state.apply(diff(3, 20, 30, 1, batch("c", c(0, 20, 30))));
        assertEquals("acct/chg", state.location(), "a diff that does not say keeps the location");
        assertEquals("acct/chg", ShardState.of(state.rollup(0, 0)).location(), "the rollup carries it");

        StateDiff elsewhere = diff(4, 30, 40, 1, batch("d", c(0, 30, 40)));
        elsewhere.setLocation("acct/other");
        ConsensusCorruptException e = assertThrows(ConsensusCorruptException.class, () -> state.apply(elsewhere));
        assertTrue(e.getMessage().contains("acct/other") && e.getMessage().contains("acct/chg"), e.getMessage());
    }
}
