package io.mvsink.blob;

/** Base of the blob room's unchecked exceptions. */
public class BlobException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BlobException(String message) {
        super(message);
    }

    public BlobException(String message, Throwable cause) {
        super(message, cause);
    }
}
