package io.mvsink.registry;

/**
 * Bytes that are not a well-formed Confluent wire-format Avro value: bad input, never retry.
 * {@link #reason()} is a short machine-readable reason for dead-letter headers and metrics.
 */
public class BadWireFormatException extends RegistryException {
    private static final long serialVersionUID = 1L;

    /** Null or fewer than five bytes. */
    public static final String TOO_SHORT = "too-short";
    /** Byte 0 is not the magic byte 0x0. */
    public static final String BAD_MAGIC = "bad-magic";
    /** The Avro payload is truncated, malformed or followed by trailing bytes. */
    public static final String UNDECODABLE = "undecodable";

    private final String reason;

    public BadWireFormatException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public BadWireFormatException(String reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** One of {@link #TOO_SHORT}, {@link #BAD_MAGIC}, {@link #UNDECODABLE}. */
    public String reason() {
        return reason;
    }
}
