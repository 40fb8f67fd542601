package io.mvsink.blob;

/** Retries ran out after an answer that leaves open whether the blob was written (timeout, reset connection, 5xx). */
public class BlobMaybeWrittenException extends BlobException {
    private static final long serialVersionUID = 1L;

    public BlobMaybeWrittenException(String message) {
        super(message);
    }

    public BlobMaybeWrittenException(String message, Throwable cause) {
        super(message, cause);
    }
}
