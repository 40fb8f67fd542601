package io.mvsink.blob;

/** Storage could not be reached or kept failing (timeouts, 5xx) for a read, list or delete: retry later. */
public class BlobUnavailableException extends BlobException {
    private static final long serialVersionUID = 1L;

    public BlobUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
