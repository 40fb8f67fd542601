package io.mvsink.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.StateRollup;
import io.mvsink.consensus.ShardState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResumeTokenTest {
    @Test
    void shouldPrintAndParseTheConsensusTopicShardSeqnoAndUpper() {
        ResumeToken token = new ResumeToken("orders-app-consensus", "orders", 812, 1_733_280_001_000L);

        assertEquals("orders-app-consensus/orders/812:1733280001000", token.toString());
        assertEquals(token, ResumeToken.parse(token.toString()));
        assertEquals(ResumeToken.start("c", "orders"), ResumeToken.parse("c/orders/0:0"));
        assertEquals(new ResumeToken("orders-app-consensus", "orders", 813, 1_733_280_001_100L),
            token.at(813, 1_733_280_001_100L), "the next token names the same shard");
    }

    @Test
    void shouldPrintAnyNameAsOneLineSafeOnACommandLine() {
        ResumeToken token = new ResumeToken("a b/c:d", "ordres d'été;$(x)*%+\n", 1, 2);

        String printed = token.toString();

        assertTrue(printed.matches("[A-Za-z0-9._%/:-]+"), printed);
        assertEquals("a%20b%2Fc%3Ad/ordres%20d%27%C3%A9t%C3%A9%3B%24%28x%29%2A%25%2B%0A/1:2", printed);
        assertEquals(token, ResumeToken.parse(printed));
    }

    @Test
    void shouldRefuseTextThatIsNotAToken() {
        for (String text : List.of("", "c/orders/812", "c/orders/:5", "c/orders/5:", "c/orders/a:b", "c/orders/1:2:3",
            "c/orders/-1:5", "c/orders/5:-1", " c/orders/1:2", "c//1:2", "/orders/1:2", "c/orders/1:2/x", "c/o rders/1:2",
            "c/ord%2/1:2", "c/ord+ers/1:2", "c/orders/1:99999999999999999999")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResumeToken.parse(text),
                text);
            assertTrue(e.getMessage().contains("<consensus topic>/<shard>/<seqno>:<upper>"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseATokenOfAnOlderMvsinkThatNamesNoShardSayingToStartOver() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ResumeToken.parse("3:1733280000762000"));

        assertTrue(e.getMessage().contains("'3:1733280000762000' is a resume token of an older mvsink"), e.getMessage());
        assertTrue(e.getMessage().contains("does not name its shard") && e.getMessage().contains("start over"),
            e.getMessage());
    }

    @Test
    void shouldRefuseATokenOfAnotherShardOrConsensusTopicNamingBoth() {
        ShardState state = state(40, 9_000, 0);

        IllegalArgumentException shard = assertThrows(IllegalArgumentException.class,
            () -> new ResumeToken("c", "returns", 3, 1_000).requireReadable("c", state));
        IllegalArgumentException topic = assertThrows(IllegalArgumentException.class,
            () -> new ResumeToken("other", "orders", 3, 1_000).requireReadable("c", state));

        assertTrue(shard.getMessage().contains("token c/returns/3:1000 is of shard returns on consensus topic c, not of "
            + "shard orders on consensus topic c"), shard.getMessage());
        assertTrue(topic.getMessage().contains("is of shard orders on consensus topic other, not of shard orders on "
            + "consensus topic c"), topic.getMessage());
        new ResumeToken("c", "orders", 3, 1_000).requireReadable("c", state);
    }

    @Test
    void shouldRefuseAResumeAtOrBelowTheSinceNamingIt() {
        ShardState state = state(40, 9_000, 5_000);

        IllegalArgumentException at = assertThrows(IllegalArgumentException.class,
            () -> token(10, 5_000).requireReadable("c", state));
        assertTrue(at.getMessage().contains("below the since of shard orders, 5000"), at.getMessage());
        assertTrue(at.getMessage().contains("at or above 5000"), at.getMessage());
        assertThrows(IllegalArgumentException.class, () -> token(3, 1_000).requireReadable("c", state));
        token(11, 5_001).requireReadable("c", state);
        token(40, 9_000).requireReadable("c", state);
    }

    @Test
    void shouldAcceptTheStartWhileNoTimeWasAdvanced() {
        ResumeToken.start("c", "orders").requireReadable("c", state(3, 3_000, 0));
        assertThrows(IllegalArgumentException.class, () -> ResumeToken.start("c", "orders")
            .requireReadable("c", state(3, 3_000, 1_000)));
    }

    @Test
    void shouldRefuseATokenAheadOfTheShard() {
        ShardState state = state(40, 9_000, 0);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> token(41, 9_500).requireReadable("c", state));
        assertTrue(e.getMessage().contains("ahead of shard orders"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> token(40, 9_001).requireReadable("c", state));
    }

    private static ResumeToken token(long seqno, long upper) {
        return new ResumeToken("c", "orders", seqno, upper);
    }

    private static ShardState state(long seqno, long upper, long since) {
        return ShardState.of(StateRollup.newBuilder().setShard("orders").setSeqno(seqno).setUpper(upper)
            .setSince(since).setPartitionCount(1).setBatches(List.of()).setRetired(List.of()).setRolledUpAtMs(0L)
            .setLocation("").build());
    }
}
