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
}
