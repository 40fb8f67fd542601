package io.mvsink.read;

/**
 * A part cannot be read as its batch describes it: its metadata names another schema id, or the
 * target schema cannot read its writer schema. Fatal for the read: retrying cannot help; the
 * message names the part and the schema ids.
 */
public class UnreadablePartException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public UnreadablePartException(String message) {
        super(message);
    }
}
