package io.mvsink.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mvsink.codec.Codecs;
import org.junit.jupiter.api.Test;

class ShardGraceTest {
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void shouldRecordAnAppendersGraceWithoutAFloorWhenTheShardHasNone() {
        ShardGrace first = ShardGrace.next(null, 60_000, NOW);

        assertEquals(new ShardGrace(60_000, 0, NOW), first);
        assertEquals(NOW - 30_000, first.oldestSealableMs(NOW));
    }

    @Test
    void shouldKeepTheRecordWhenTheAppendersGraceIsTheShards() {
        ShardGrace recorded = new ShardGrace(60_000, 5, NOW - 1_000);

        assertSame(recorded, ShardGrace.next(recorded, 60_000, NOW));
    }

    @Test
    void shouldLowerTheGraceAtOnceKeepingTheFloor() {
        ShardGrace recorded = new ShardGrace(1_800_000, NOW - 2_000_000, NOW - 10_000);

        ShardGrace lowered = ShardGrace.next(recorded, 60_000, NOW);

        assertEquals(new ShardGrace(60_000, NOW - 2_000_000, NOW), lowered);
        assertEquals(NOW - 30_000, lowered.oldestSealableMs(NOW), "half the new grace back, at once");
    }

    @Test
    void shouldRaiseTheGraceOnlyForBatchesTheRecordedGraceStillAllowed() {
        ShardGrace recorded = new ShardGrace(60_000, 0, NOW - 10_000);

        ShardGrace raised = ShardGrace.next(recorded, 1_800_000, NOW);

        assertEquals(new ShardGrace(1_800_000, NOW - 30_000, NOW), raised);
        assertEquals(NOW - 30_000, raised.oldestSealableMs(NOW), "a batch the smaller grace refused stays refused");
        long later = NOW + 1_000_000;
        assertEquals(later - 900_000, raised.oldestSealableMs(later), "the floor falls behind half the new grace");
    }

    @Test
    void shouldNeverLowerTheBoundAcrossALoweringAndARaise() {
        ShardGrace big = new ShardGrace(1_800_000, 0, NOW - 1);
        long bound = big.oldestSealableMs(NOW);
        ShardGrace small = ShardGrace.next(big, 60_000, NOW);
        ShardGrace bigAgain = ShardGrace.next(small, 1_800_000, NOW + 1_000);

        assertEquals(NOW + 1_000 - 30_000, bigAgain.oldestSealableMs(NOW + 1_000));
        assertEquals(true, bigAgain.oldestSealableMs(NOW + 1_000) >= bound);
    }

    @Test
    void shouldRoundTripItsStoredRecord() {
        ShardGrace grace = new ShardGrace(120_000, 42, NOW);

        byte[] bytes = Codecs.GRACE.encode(grace.toRecord("orders"));

        assertEquals("orders", Codecs.GRACE.decode(bytes).getShard());
        assertEquals(grace, ShardGrace.of(Codecs.GRACE.decode(bytes)));
    }

    @Test
    void shouldRefuseAGraceBelowFourMilliseconds() {
        assertThrows(IllegalArgumentException.class, () -> new ShardGrace(3, 0, NOW));
    }
}
