package io.mvsink.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GridCutsTest {
    private static final long W = 1000;

    @Test
    void shouldCutAtTheCoarsestGridPointOfTheWindow() {
        assertEquals(4 * W, GridCuts.cut(0, 5 * W, W));
        assertEquals(8 * W, GridCuts.cut(4 * W, 13 * W + 999, W), "the limit is floored to the grid");
        assertEquals(1024 * W, GridCuts.cut(0, 1500 * W, W));
        assertEquals(1280 * W, GridCuts.cut(1024 * W, 1500 * W, W));
    }

    @Test
    void shouldCutEveryGridPointAtASteadyRate() {
        for (long k = 1_700_000_000L; k < 1_700_000_100L; k++) {
            assertEquals((k + 1) * W, GridCuts.cut(k * W, (k + 1) * W, W));
        }
    }

    @Test
    void shouldRefuseAnEmptyWindow() {
        assertThrows(IllegalArgumentException.class, () -> GridCuts.cut(5 * W, 5 * W + 999, W));
    }

    /**
     * The lemma alignment rests on: when a range {@code [m, x)} of one JVM passes over a cut {@code p}
     * of another ({@code m < p < x}), its end {@code x} is strictly coarser than {@code p}. So each
     * crossing raises the level, and two sequences cannot cross each other forever: they meet.
     */
    @Test
    void shouldOnlyPassOverACutOfAnotherSequenceAtACoarserLevel() {
        Random random = new Random(7);
        int crossings = 0;
        for (int trial = 0; trial < 500; trial++) {
            long start = 1_700_000_000L + random.nextInt(1_000);
            List<long[]> rangesA = sequence(random, start);
            List<long[]> rangesB = sequence(random, start);
            for (long[] a : rangesA) {
                for (long[] b : rangesB) {
                    if (b[0] < a[1] && a[1] < b[1]) {
                        crossings++;
                        assertTrue(level(b[1]) > level(a[1]), "range [" + b[0] + ", " + b[1] + ") passes over cut " + a[1]);
                    }
                }
            }
            assertTrue(rangesA.get(rangesA.size() - 1)[1] > start);
        }
        assertTrue(crossings > 100, "the trials cross: " + crossings);
    }

    /** Ranges (in intervals) cut from {@code start} as a frontier advances by random steps. */
    private static List<long[]> sequence(Random random, long start) {
        List<long[]> ranges = new ArrayList<>();
        long at = start;
        long limit = start;
        for (int step = 0; step < 40; step++) {
            limit += 1 + random.nextInt(random.nextBoolean() ? 3 : 300);
            while (at < limit) {
                long next = GridCuts.cut(at * W, limit * W, W) / W;
                ranges.add(new long[] {at, next});
                at = next;
            }
        }
        return ranges;
    }

    private static int level(long point) {
        return Long.numberOfTrailingZeros(point);
    }
}
