package io.mvsink.blob;

import java.time.Duration;

/** Pauses between retries; tests inject one that records instead of sleeping. */
@FunctionalInterface
interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(d.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
