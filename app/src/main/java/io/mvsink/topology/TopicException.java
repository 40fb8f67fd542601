package io.mvsink.topology;

/** A topic is missing or misconfigured: fatal at start; the message says what to fix. */
public class TopicException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TopicException(String message) {
        super(message);
    }

    public TopicException(String message, Throwable cause) {
        super(message, cause);
    }
}
