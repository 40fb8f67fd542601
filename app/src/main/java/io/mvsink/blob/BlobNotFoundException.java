package io.mvsink.blob;

/** No blob at the key. */
public class BlobNotFoundException extends BlobException {
    private static final long serialVersionUID = 1L;

    public BlobNotFoundException(String message) {
        super(message);
    }

    public BlobNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
