package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BufferKeyTest {
    private static final long[] TIMES_IN_ORDER = {
        Long.MIN_VALUE, Long.MIN_VALUE + 1, -1_000_000L, -256L, -1L, 0L, 1L, 255L, 256L, 1_000_000L,
        Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void shouldOrderKeyBytesByTimeIncludingNegativeAndExtremeTimes() {
        for (int i = 0; i + 1 < TIMES_IN_ORDER.length; i++) {
            byte[] earlier = BufferKey.encode(TIMES_IN_ORDER[i], 1, new byte[] {(byte) 0xFF});
            byte[] later = BufferKey.encode(TIMES_IN_ORDER[i + 1], 1, new byte[] {0x00});
            assertTrue(Arrays.compareUnsigned(earlier, later) < 0,
                TIMES_IN_ORDER[i] + " must sort before " + TIMES_IN_ORDER[i + 1]);
        }
    }

    @Test
    void shouldSortTimeFloorAtOrBeforeEveryKeyOfThatTimeAndAfterEveryEarlierKey() {
        for (int i = 0; i + 1 < TIMES_IN_ORDER.length; i++) {
            long time = TIMES_IN_ORDER[i + 1];
            byte[] floor = BufferKey.timeFloor(time);
            byte[] smallestOfTime = BufferKey.encode(time, 0, new byte[0]);
            byte[] largestBefore = BufferKey.encode(TIMES_IN_ORDER[i], -1, new byte[] {(byte) 0xFF, (byte) 0xFF});
            assertTrue(Arrays.compareUnsigned(floor, smallestOfTime) <= 0, "floor of " + time);
            assertTrue(Arrays.compareUnsigned(largestBefore, floor) < 0, "floor of " + time);
        }
    }

    @Test
    void shouldReadBackTimeSchemaIdAndRow() {
        byte[] row = {1, 2, 3, (byte) 0x80};
        for (long time : TIMES_IN_ORDER) {
            byte[] key = BufferKey.encode(time, 0x7F00_00FE, row);

            assertEquals(BufferKey.HEADER + row.length, key.length);
            assertEquals(time, BufferKey.time(key));
            assertEquals(0x7F00_00FE, BufferKey.schemaId(key));
            assertArrayEquals(row, BufferKey.row(key));
        }
    }

    @Test
    void shouldReadBackANegativeSchemaIdAndAnEmptyRow() {
        byte[] key = BufferKey.encode(5L, -2, new byte[0]);

        assertEquals(-2, BufferKey.schemaId(key));
        assertArrayEquals(new byte[0], BufferKey.row(key));
    }

    @Test
    void shouldOrderKeysOfOneTimeBySchemaIdThenRow() {
        byte[] a = BufferKey.encode(7L, 1, new byte[] {9});
        byte[] b = BufferKey.encode(7L, 2, new byte[] {0});
        byte[] c = BufferKey.encode(7L, 2, new byte[] {(byte) 0x80});

        assertTrue(Arrays.compareUnsigned(a, b) < 0);
        assertTrue(Arrays.compareUnsigned(b, c) < 0);
    }
}
