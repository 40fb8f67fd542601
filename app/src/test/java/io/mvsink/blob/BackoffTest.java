package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));

    @Test
    void shouldDoubleFromInitialDelay() {
        assertEquals(Duration.ofMillis(100), backoff.beforeRetry(1));
        assertEquals(Duration.ofMillis(200), backoff.beforeRetry(2));
        assertEquals(Duration.ofMillis(400), backoff.beforeRetry(3));
    }

    @Test
    void shouldCapDelay() {
        assertEquals(Duration.ofSeconds(5), backoff.beforeRetry(7));
        assertEquals(Duration.ofSeconds(5), backoff.beforeRetry(1000));
    }
}
