package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BlobOwnerTest {
    private static final BlobOwner EAST = new BlobOwner("MkU3OEVBNTcwNTJENDM2Qg", "orders-app-consensus", "orders");

    @Test
    void shouldNameTheClusterTheConsensusTopicAndTheShard() {
        assertEquals("MkU3OEVBNTcwNTJENDM2Qg/orders-app-consensus/orders", EAST.value());
    }

    @Test
    void shouldTellTheSameAppOnTwoClustersApart() {
        BlobOwner west = new BlobOwner("q1Sh-9_ISia_zwGINzRvyQ", EAST.consensusTopic(), EAST.shard());
        assertNotEquals(EAST.value(), west.value());
    }

    @Test
    void shouldRefuseAPartThatIsNotPrintableAsciiOrHoldsASlash() {
        for (String cluster : new String[] {"", "a/b", "a b", "caf\u00e9", "tab\t"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BlobOwner(cluster, "c", "s"), cluster);
            assertTrue(e.getMessage().contains("Kafka cluster id"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new BlobOwner("id", null, "s"));
        assertThrows(IllegalArgumentException.class, () -> new BlobOwner("id", "c", "s/t"));
    }
}
