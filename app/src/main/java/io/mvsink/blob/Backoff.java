package io.mvsink.blob;

import java.time.Duration;

/** Exponential backoff: {@code initial}, doubling per retry, capped at {@code max}. */
record Backoff(Duration initial, Duration max) {

    /** The pause before retry number {@code retry} (1 for the first retry). */
    Duration beforeRetry(int retry) {
        int doublings = Math.min(Math.max(retry - 1, 0), 30);
        Duration delay = initial.multipliedBy(1L << doublings);
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
