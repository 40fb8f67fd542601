package io.mvsink.protocol;

/** The interval grid of {@code batch.interval.ms}: intervals are {@code [k*width, (k+1)*width)}. */
public record Grid(long width) {
    public Grid {
        if (width <= 0) {
            throw new IllegalArgumentException("interval width must be positive: " + width);
        }
    }

    /** The largest grid point at or below {@code time}: the upper of the last interval a frontier closes. */
    public long floor(long time) {
        return Math.floorDiv(time, width) * width;
    }

    /** How many grid intervals {@code [lower, upper)} spans. */
    public long intervals(long lower, long upper) {
        return (upper - lower) / width;
    }
}
