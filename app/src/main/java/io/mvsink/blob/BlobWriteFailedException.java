package io.mvsink.blob;

/** The write certainly did not happen (the request was refused before storage could have written it). */
public class BlobWriteFailedException extends BlobException {
    private static final long serialVersionUID = 1L;

    public BlobWriteFailedException(String message) {
        super(message);
    }

    public BlobWriteFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
