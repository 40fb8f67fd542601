package io.mvsink.time;

/**
 * A half-open range of times {@code [lower, upper)}: an interval, a contribution's, a batch's or a
 * minted range. Empty when {@code lower >= upper}; {@link #of} refuses that where a range must hold
 * a time (a range the protocol hands out or contributes).
 */
public record TimeRange(long lower, long upper) {
    /** A range that holds at least one time. */
    public static TimeRange of(long lower, long upper) {
        if (lower >= upper) {
            throw new IllegalArgumentException("empty range [" + lower + ", " + upper + ")");
        }
        return new TimeRange(lower, upper);
    }

    public boolean isEmpty() {
        return lower >= upper;
    }

    /** Whether some time lies in both this range and {@code [lower, upper)}. */
    public boolean overlaps(long lower, long upper) {
        return this.lower < upper && this.upper > lower;
    }

    /** The smallest range that holds both. */
    public TimeRange span(TimeRange other) {
        return new TimeRange(Math.min(lower, other.lower), Math.max(upper, other.upper));
    }

    @Override
    public String toString() {
        return "[" + lower + ", " + upper + ")";
    }
}
