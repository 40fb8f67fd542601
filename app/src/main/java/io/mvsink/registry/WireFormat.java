package io.mvsink.registry;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Confluent wire format: byte 0 is the magic byte {@code 0x0}, bytes 1..4 the schema id
 * (big-endian), the rest the Avro binary encoding of the value.
 */
public final class WireFormat {
    /** The only magic byte defined by the format. */
    public static final byte MAGIC = 0x0;
    /** Bytes before the Avro payload: magic plus schema id. */
    public static final int HEADER_SIZE = 5;

    /** A decoded frame: the writer schema's id and the Avro binary payload. */
    public record Framed(int schemaId, byte[] avro) {
    }

    private WireFormat() {
    }

    /** Frames {@code avroBinary} with the magic byte and {@code schemaId}. */
    public static byte[] encode(int schemaId, byte[] avroBinary) {
        if (avroBinary == null) {
            throw new IllegalArgumentException("avroBinary must not be null (schema id " + schemaId + ")");
        }
        return ByteBuffer.allocate(HEADER_SIZE + avroBinary.length)
                .put(MAGIC)
                .putInt(schemaId)
                .put(avroBinary)
                .array();
    }

    /** The schema id of a framed value; {@link BadWireFormatException} if the header is bad. */
    public static int schemaId(byte[] framed) {
        checkHeader(framed);
        return ByteBuffer.wrap(framed, 1, 4).getInt();
    }

    /** A read-only view of the Avro payload of a framed value (no copy). */
    public static ByteBuffer payload(byte[] framed) {
        checkHeader(framed);
        return ByteBuffer.wrap(framed, HEADER_SIZE, framed.length - HEADER_SIZE).slice().asReadOnlyBuffer();
    }

    /** Splits a framed value into schema id and a copy of the Avro payload. */
    public static Framed decode(byte[] framed) {
        int id = schemaId(framed);
        return new Framed(id, Arrays.copyOfRange(framed, HEADER_SIZE, framed.length));
    }

    private static void checkHeader(byte[] framed) {
        if (framed == null) {
            throw new BadWireFormatException(BadWireFormatException.TOO_SHORT, "wire-format value is null");
        }
        if (framed.length < HEADER_SIZE) {
            throw new BadWireFormatException(BadWireFormatException.TOO_SHORT,
                    "wire-format value has " + framed.length + " bytes, needs at least " + HEADER_SIZE);
        }
        if (framed[0] != MAGIC) {
            throw new BadWireFormatException(BadWireFormatException.BAD_MAGIC,
                    String.format("wire-format magic byte is 0x%02x, expected 0x00", framed[0]));
        }
    }
}
