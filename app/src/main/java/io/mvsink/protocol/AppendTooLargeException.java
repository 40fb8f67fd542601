package io.mvsink.protocol;

/**
 * An append cannot fit the consensus record bound even without inline data and garbage: fatal (every
 * instance would build the same append); the message names the limits to raise.
 */
public class AppendTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AppendTooLargeException(String message) {
        super(message);
    }
}
