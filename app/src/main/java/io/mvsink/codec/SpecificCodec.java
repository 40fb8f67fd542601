package io.mvsink.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro binary encoding of mvsink's own message types (schemas/*.avsc). Stored bytes carry no
 * schema id: every stored type only ever gains fields with defaults, at the end, and readers
 * decode with the writer schema they were written with when given one
 * ({@link #decode(byte[], Schema)}). Without one, {@link #decode(byte[])} tries this version,
 * then the type's earlier versions (resources {@code schema-history/<Type>-v<n>.avsc}), newest
 * first: bytes of an earlier version end before this version's new fields, and bytes of a later
 * version have trailing bytes for an earlier one, so exactly one version reads them whole.
 *
 * <p>That argument holds only for fields added at the end of the top-level record. A field added
 * to a nested record (a {@code Part} inside a {@code Batch} inside a diff) shifts every byte after
 * it, so a type that changed that way is <em>framed</em> ({@link #framed}): its bytes start with
 * one marker byte, {@link #FRAME_MARKER}, then the Avro binary of this version. Every framed type
 * starts with a string field, whose length is never negative, so the first byte of an unframed
 * value is even (zigzag) and the odd marker tells the two apart; unframed bytes are decoded with
 * the earlier versions only.
 */
public final class SpecificCodec<T extends SpecificRecord> {
    private final Schema schema;
    private final SpecificDatumWriter<T> writer;
    private final SpecificDatumReader<T> reader;
    private final List<SpecificDatumReader<T>> earlier = new ArrayList<>();
    private final boolean framed;

    /** The first byte of a framed value: zigzag -1, never the first byte of a string's length. */
    public static final byte FRAME_MARKER = 0x01;

    private SpecificCodec(Class<T> type, Schema schema, boolean framed) {
        this.schema = schema;
        this.framed = framed;
        this.writer = new SpecificDatumWriter<>(type);
        this.reader = new SpecificDatumReader<>(type);
        for (int version = 1; ; version++) {
            Schema old = historic(type.getSimpleName() + "-v" + version);
            if (old == null) {
                break;
            }
            earlier.add(0, new SpecificDatumReader<>(old, schema));
        }
    }

    public static <T extends SpecificRecord> SpecificCodec<T> of(Class<T> type) {
        try {
            Schema schema = (Schema) type.getField("SCHEMA$").get(null);
            return new SpecificCodec<>(type, schema, false);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(type + " is not an Avro specific record", e);
        }
    }

    /**
     * A framed codec: its values start with {@link #FRAME_MARKER}; values without it were written
     * before the type was framed and decode with its earlier versions.
     *
     * @throws IllegalArgumentException if the type's first field is not a string, or it has no earlier version
     */
    public static <T extends SpecificRecord> SpecificCodec<T> framed(Class<T> type) {
        SpecificCodec<T> unframed = of(type);
        if (!startsWithString(unframed.schema)) {
            throw new IllegalArgumentException(type + " must start with a string to be framed");
        }
        if (unframed.earlier.isEmpty()) {
            throw new IllegalArgumentException(type + " has no earlier version to read unframed values with");
        }
        return new SpecificCodec<>(type, unframed.schema, true);
    }

    private static boolean startsWithString(Schema schema) {
        return switch (schema.getType()) {
            case STRING -> true;
            case RECORD -> !schema.getFields().isEmpty() && startsWithString(schema.getFields().get(0).schema());
            default -> false;
        };
    }

    private static Schema historic(String name) {
        try (InputStream in = SpecificCodec.class.getResourceAsStream("/schema-history/" + name + ".avsc")) {
            return in == null ? null : new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the stored schema " + name, e);
        }
    }

    public byte[] encode(T value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        if (framed) {
            out.write(FRAME_MARKER);
        }
        try {
            writer.write(value, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + schema.getName(), e);
        }
        return out.toByteArray();
    }

    /** Decodes bytes written with this version of the schema or an earlier one. */
    public T decode(byte[] bytes) {
        if (framed) {
            return isFramed(bytes) ? read(reader, bytes, 1) : readEarlier(bytes, null);
        }
        try {
            return read(reader, bytes, 0);
        } catch (CorruptRecordException e) {
            return readEarlier(bytes, e);
        }
    }

    private static boolean isFramed(byte[] bytes) {
        return bytes.length > 0 && bytes[0] == FRAME_MARKER;
    }

    private T readEarlier(byte[] bytes, CorruptRecordException first) {
        CorruptRecordException failure = first;
        for (SpecificDatumReader<T> old : earlier) {
            try {
                return read(old, bytes, 0);
            } catch (CorruptRecordException e) {
                // not this version either
                failure = failure != null ? failure : e;
            }
        }
        throw failure != null ? failure : new CorruptRecordException("cannot decode " + schema.getName());
    }

    /** Decodes bytes written with an older {@code writerSchema}, resolving them to this version. */
    public T decode(byte[] bytes, Schema writerSchema) {
        // framed bytes are this version's (a writer schema equal to this one); others have no marker
        int offset = framed && isFramed(bytes) ? 1 : 0;
        SpecificDatumReader<T> resolving = writerSchema.equals(schema) ? reader : new SpecificDatumReader<>(writerSchema, schema);
        return read(resolving, bytes, offset);
    }

    private T read(SpecificDatumReader<T> resolving, byte[] bytes, int offset) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, null);
        try {
            T value = resolving.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new CorruptRecordException(schema.getName() + " has trailing bytes");
            }
            return value;
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptRecordException c) {
                throw c;
            }
            throw new CorruptRecordException("cannot decode " + schema.getName() + ": " + e.getMessage(), e);
        }
    }

    public Schema schema() {
        return schema;
    }
}
