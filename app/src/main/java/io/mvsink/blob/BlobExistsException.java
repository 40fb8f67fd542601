package io.mvsink.blob;

/** The key is held by a blob with other bytes: a broken write-once key scheme. */
public class BlobExistsException extends BlobException {
    private static final long serialVersionUID = 1L;

    public BlobExistsException(String message) {
        super(message);
    }

    public BlobExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}
