package io.mvsink.read;

/**
 * A part cannot be read as its batch describes it: its metadata names another schema id, the
 * registry's schema of an inline part's id is not the one it was written with (its fingerprint
 * differs), or the target schema cannot read its writer schema. Fatal for the read: retrying cannot
 * help; the message names the part and the schema ids (and both fingerprints).
 */
public class UnreadablePartException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public UnreadablePartException(String message) {
        super(message);
    }
}
