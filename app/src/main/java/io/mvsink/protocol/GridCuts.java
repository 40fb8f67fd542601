package io.mvsink.protocol;

/**
 * Where a minted range ends: of the grid points in {@code (lower, limit]}, the one whose interval
 * index has the most trailing zero bits (the coarsest point of the dyadic grid hierarchy).
 *
 * <p>Why: every JVM mints its own ranges, and an append needs a point where the ranges of all
 * JVMs end together. If every cut is the coarsest point of its window, two JVMs' sequences always
 * meet again: when a range of one JVM crosses a cut {@code x} of another, its own cut has a
 * strictly coarser level than {@code x} (the finest point of a window cannot be passed over by a
 * coarser one in the same window), and the other JVM, moving on from {@code x}, either lands on that
 * cut or crosses it at a coarser level still; levels are bounded, so the sequences meet. At a steady
 * rate (a window of one interval) every grid point is a cut, as before.
 */
final class GridCuts {
    private GridCuts() {
    }

    /**
     * The coarsest grid point in {@code (lower, limit]}; {@code lower} is a grid point and
     * {@code limit >= lower + width} is floored to the grid. Times below 0 are cut at the limit.
     */
    static long cut(long lower, long limit, long width) {
        long a = Math.floorDiv(lower, width);
        long b = Math.floorDiv(limit, width);
        if (b <= a) {
            throw new IllegalArgumentException("no grid point in (" + lower + ", " + limit + "] of width " + width);
        }
        if (a < 0) {
            return b * width;
        }
        int level = 63 - Long.numberOfLeadingZeros(a ^ b);
        return (b >>> level << level) * width;
    }
}
