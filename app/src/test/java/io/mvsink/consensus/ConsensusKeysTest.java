package io.mvsink.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsensusKeysTest {
    private static final long[] SEQNOS = {1, 2, 9, 10, 11, 99, 100, 1_000_000, Integer.MAX_VALUE + 1L, Long.MAX_VALUE};

    /**
     * The grace record's key is met only by readers that look for it: readers of versions before
     * it filter by {@code shardOf} (ShardFollower, ConsensusReader), decode only seqnos above 0 or
     * the rollup in a range scan (ConsensusMirror), or take the last key of the shard's range as
     * its latest diff or rollup (SealedUpper), which it never is.
     */
    @Test
    void shouldKeepTheGraceRecordsKeyAwayFromReadersThatDoNotKnowIt() {
        String key = ConsensusKeys.grace("orders");

        assertTrue(!"orders".equals(ConsensusKeys.shardOf(key)), key);
        assertEquals(-1, ConsensusKeys.seqnoOf(key));
        assertTrue(!ConsensusKeys.isRollup(key) && !ConsensusKeys.isDiff(key));
        assertTrue(ConsensusKeys.first("orders").compareTo(key) < 0, "inside the shard's range: " + key);
        assertTrue(key.compareTo(ConsensusKeys.rollup("orders")) < 0, "before the rollup and every diff: " + key);
    }

    @Test
    void shouldOrderKeysBySeqno() {
        List<String> keys = new ArrayList<>();
        for (long seqno : SEQNOS) {
            keys.add(ConsensusKeys.diff("orders", seqno));
        }
        List<String> sorted = new ArrayList<>(keys);
        Collections.sort(sorted);

        assertEquals(keys, sorted);
    }

    @Test
    void shouldKeepEveryKeyOfAShardInsideItsRange() {
        for (long seqno : SEQNOS) {
            String key = ConsensusKeys.diff("orders", seqno);
            assertTrue(ConsensusKeys.first("orders").compareTo(key) <= 0, key);
            assertTrue(key.compareTo(ConsensusKeys.last("orders")) <= 0, key);
        }
    }

    @Test
    void shouldKeepNeighbouringShardsOutOfTheRange() {
        for (String other : List.of("order", "orders-", "orders.v2", "orders0", "orders_", "ordersz", "orderr")) {
            String key = ConsensusKeys.diff(other, 5);
            boolean inside = ConsensusKeys.first("orders").compareTo(key) <= 0
                && key.compareTo(ConsensusKeys.last("orders")) <= 0;
            assertTrue(!inside, key);
        }
    }

    @Test
    void shouldFindTheShardOfAKey() {
        assertEquals("orders", ConsensusKeys.shardOf(ConsensusKeys.diff("orders", 42)));
        assertEquals("orders.v2-x_y", ConsensusKeys.shardOf(ConsensusKeys.diff("orders.v2-x_y", 1)));
        assertEquals("0000000000000000001", ConsensusKeys.diff("s", 1).substring(2));
    }

    @Test
    void shouldFindNoShardInAKeyThatIsNotAConsensusKey() {
        assertNull(ConsensusKeys.shardOf(null));
        assertNull(ConsensusKeys.shardOf("orders"));
        assertNull(ConsensusKeys.shardOf("/0000000000000000001"));
        assertNull(ConsensusKeys.shardOf(""));
    }
}
