package io.mvsink.topology;

/** A topic is missing or misconfigured: fatal at start; the message says what to fix. */
public class TopicException extends RuntimeException {
    public TopicException(String message) {
        super(message);
    }

    public TopicException(String message, Throwable cause) {
        super(message, cause);
    }
}
