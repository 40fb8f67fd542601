package io.mvsink.consensus;

import static io.mvsink.consensus.Diffs.batch;
import static io.mvsink.consensus.Diffs.c;
import static io.mvsink.consensus.Diffs.diff;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import org.junit.jupiter.api.Test;

class ShardPlacementTest {

    @Test
    void shouldRefuseAnotherLocationNamingBothAndTheOption() {
        ShardState state = sealedAt("acct/chg", 4);
        ShardPlacementException e = assertThrows(ShardPlacementException.class,
            () -> ShardPlacement.require(state, "t", 4, "acct/other", "blob.container"));
        assertTrue(e.getMessage().contains("acct/chg") && e.getMessage().contains("acct/other")
            && e.getMessage().contains("blob.container"), e.getMessage());
    }

    @Test
    void shouldRefuseAnotherPartitionCountSayingWhatToDo() {
        ShardState state = sealedAt("acct/chg", 4);
        ShardPlacementException e = assertThrows(ShardPlacementException.class,
            () -> ShardPlacement.require(state, "t", 6, "acct/chg", "blob.container"));
        assertTrue(e.getMessage().contains("sealed over 4 partitions of corrections topic 't', which now has 6")
            && e.getMessage().contains("new shard"), e.getMessage());
    }

    @Test
    void shouldAcceptTheSamePlaceAShardWithoutAppendsAndAShardThatNeverRecordedItsLocation() {
        assertDoesNotThrow(() -> ShardPlacement.require(sealedAt("acct/chg", 4), "t", 4, "acct/chg", "o"));
        assertDoesNotThrow(() -> ShardPlacement.require(new ShardState("s"), "t", 6, "acct/other", "o"));
        assertDoesNotThrow(() -> ShardPlacement.require(sealedAt("", 4), "t", 4, "acct/other", "o"));
    }

    private static ShardState sealedAt(String location, int partitions) {
        ShardState state = new ShardState("s");
        StateDiff first = diff(1, 0, 10, partitions, batch("a", contributions(partitions)));
        first.setLocation(location);
        state.apply(first);
        return state;
    }

    private static Contribution[] contributions(int partitions) {
        Contribution[] all = new Contribution[partitions];
        for (int p = 0; p < partitions; p++) {
            all[p] = c(p, 0, 10);
        }
        return all;
    }
}
