package io.mvsink.local;

import java.time.Duration;

/** One service of the local stack, run as a child process. */
interface StackComponent {

    /** Short name for progress lines and errors, e.g. {@code kafka}. */
    String name();

    /** Where clients reach it, e.g. {@code 127.0.0.1:40123}. */
    String address();

    /** Starts the service and returns once it serves clients; on failure nothing is left running. */
    void start(Duration timeout);

    /** Stops the service; idempotent, safe while {@link #start} runs in another thread. */
    void stop();
}
