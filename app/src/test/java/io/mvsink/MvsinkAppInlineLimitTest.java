package io.mvsink;

import static io.mvsink.MvsinkApp.INLINE_BYTES_PER_APPEND;
import static io.mvsink.MvsinkApp.inlineMaxBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The inline limit per batch the app gives its builder: inline.max.bytes, capped per partition. */
class MvsinkAppInlineLimitTest {
    @Test
    void shouldKeepTheConfiguredLimitBelowTheCap() {
        assertEquals(4096, inlineMaxBytes(4096, 4), "cap 128 KiB for 4 partitions");
        assertEquals(4096, inlineMaxBytes(4096, 128), "cap exactly 4096 for 128 partitions");
    }

    @Test
    void shouldCapAtTheAppendsInlineBytesDividedByThePartitions() {
        assertEquals(INLINE_BYTES_PER_APPEND / 16, inlineMaxBytes(65_536, 16));
        assertEquals(4064, inlineMaxBytes(4096, 129), "129 partitions: 524288 / 129, rounded down");
    }

    @Test
    void shouldKeepZeroAsZero() {
        assertEquals(0, inlineMaxBytes(0, 1));
        assertEquals(0, inlineMaxBytes(0, 1000));
    }

    @Test
    void shouldKeepEveryPartitionsInlineBatchTogetherWithinOneAppendForManyPartitions() {
        for (int partitions : new int[] {1, 7, 100, 1000, 10_000}) {
            long limit = inlineMaxBytes(4096, partitions);
            assertTrue(limit > 0 && limit * partitions <= INLINE_BYTES_PER_APPEND, partitions + ": " + limit);
        }
        assertEquals(524, inlineMaxBytes(4096, 1000), "524288 / 1000, rounded down");
    }

    @Test
    void shouldTurnInlineOffWhenTheCapRoundsDownToZero() {
        assertEquals(1, inlineMaxBytes(4096, (int) INLINE_BYTES_PER_APPEND));
        assertEquals(0, inlineMaxBytes(4096, (int) INLINE_BYTES_PER_APPEND + 1));
    }
}
