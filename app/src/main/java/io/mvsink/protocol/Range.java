package io.mvsink.protocol;

/** A half-open range of times {@code [lower, upper)} on the interval grid; never empty. */
record Range(long lower, long upper) {
    Range {
        if (lower >= upper) {
            throw new IllegalArgumentException("empty range [" + lower + ", " + upper + ")");
        }
    }
}
