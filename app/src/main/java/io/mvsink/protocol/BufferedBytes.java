package io.mvsink.protocol;

/**
 * What a task holds in its correction buffer, as the minter sees it: approximate encoded bytes of
 * the updates with {@code lower <= time < upper}. Called under the batch coalescer's lock from
 * any stream thread, so implementations are thread-safe and cheap (no store reads).
 */
@FunctionalInterface
public interface BufferedBytes {
    long between(long lower, long upper);

    BufferedBytes NONE = (lower, upper) -> 0;
}
