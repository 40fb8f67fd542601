package io.mvsink.protocol;

/**
 * Who takes a finished, undelivered batch, decided under the coalescer's lock: the first
 * participant that polls it. Injectable only so that a test can break the rule and see the
 * orphan detector count.
 */
@FunctionalInterface
interface Ownership {
    /** Whether {@code polling} takes {@code batch}, which nobody has taken yet. */
    boolean takes(SharedBuilder batch, Handle polling);

    Ownership FIRST_POLLER = (batch, polling) -> true;
}
