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
    void shouldPrintAndParseSeqnoAndUpper() {
        ResumeToken token = new ResumeToken(812, 1_733_280_001_000L);

        assertEquals("812:1733280001000", token.toString());
        assertEquals(token, ResumeToken.parse(token.toString()));
        assertEquals(ResumeToken.START, ResumeToken.parse("0:0"));
    }

    @Test
    void shouldRefuseTextThatIsNotAToken() {
        for (String text : List.of("", "812", ":5", "5:", "a:b", "1:2:3", "-1:5", "5:-1", " 1:2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResumeToken.parse(text),
                text);
            assertTrue(e.getMessage().contains("<seqno>:<upper>") || e.getMessage().contains("not negative"),
                e.getMessage());
        }
    }

    @Test
    void shouldRefuseAResumeAtOrBelowTheSinceNamingIt() {
        ShardState state = state(40, 9_000, 5_000);

        IllegalArgumentException at = assertThrows(IllegalArgumentException.class,
            () -> new ResumeToken(10, 5_000).requireReadable(state));
        assertTrue(at.getMessage().contains("below the since of shard orders, 5000"), at.getMessage());
        assertTrue(at.getMessage().contains("at or above 5000"), at.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ResumeToken(3, 1_000).requireReadable(state));
        new ResumeToken(11, 5_001).requireReadable(state);
        new ResumeToken(40, 9_000).requireReadable(state);
    }

    @Test
    void shouldAcceptTheStartWhileNoTimeWasAdvanced() {
        ResumeToken.START.requireReadable(state(3, 3_000, 0));
        assertThrows(IllegalArgumentException.class, () -> ResumeToken.START.requireReadable(state(3, 3_000, 1_000)));
    }

    @Test
    void shouldRefuseATokenAheadOfTheShard() {
        ShardState state = state(40, 9_000, 0);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new ResumeToken(41, 9_500).requireReadable(state));
        assertTrue(e.getMessage().contains("ahead of shard orders"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ResumeToken(40, 9_001).requireReadable(state));
    }

    private static ShardState state(long seqno, long upper, long since) {
        return ShardState.of(StateRollup.newBuilder().setShard("orders").setSeqno(seqno).setUpper(upper)
            .setSince(since).setPartitionCount(1).setBatches(List.of()).setRetired(List.of()).setRolledUpAtMs(0L)
            .setLocation("").build());
    }
}
