package io.mvsink.blob;

/** The key is held by a blob with other bytes: a broken write-once key scheme. */
public class BlobExistsException extends BlobException {
    public BlobExistsException(String message) {
        super(message);
    }

    public BlobExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}
