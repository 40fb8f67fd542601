package io.mvsink.local;

/**
 * The local stack could not be found, started or stopped. Not retriable as such: the message
 * says which component failed and, for a process, ends with the tail of its log.
 */
public class LocalStackException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LocalStackException(String message) {
        super(message);
    }

    public LocalStackException(String message, Throwable cause) {
        super(message, cause);
    }
}
