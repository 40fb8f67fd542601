package io.mvsink.protocol;

import java.util.Locale;

/** How the tasks of one JVM share batches ({@code coalescing.mode}). */
public enum CoalescingMode {
    /** Every contribution is a batch of its own. */
    NONE,
    /** Join the interval's open builder if there is one, else open one; it closes when its last handle finishes. */
    BEST_EFFORT,
    /** The builder closes when every local task of the shard has joined, or {@code barrier.timeout.ms} passes. */
    BARRIER;

    public static CoalescingMode parse(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
