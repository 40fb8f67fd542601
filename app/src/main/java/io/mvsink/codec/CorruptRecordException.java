package io.mvsink.codec;

/** Stored bytes of one of mvsink's own types do not decode: a bug or a corrupted topic. Fatal. */
public class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }

    public CorruptRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
