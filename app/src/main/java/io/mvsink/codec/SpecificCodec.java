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
 */
public final class SpecificCodec<T extends SpecificRecord> {
    private final Schema schema;
    private final SpecificDatumWriter<T> writer;
    private final SpecificDatumReader<T> reader;
    private final List<SpecificDatumReader<T>> earlier = new ArrayList<>();

    private SpecificCodec(Class<T> type, Schema schema) {
        this.schema = schema;
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
            return new SpecificCodec<>(type, schema);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(type + " is not an Avro specific record", e);
        }
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
        try {
            return read(reader, bytes);
        } catch (CorruptRecordException e) {
            for (SpecificDatumReader<T> old : earlier) {
                try {
                    return read(old, bytes);
                } catch (CorruptRecordException ignored) {
                    // not this version either
                }
            }
            throw e;
        }
    }

    /** Decodes bytes written with an older {@code writerSchema}, resolving them to this version. */
    public T decode(byte[] bytes, Schema writerSchema) {
        return read(writerSchema == schema ? reader : new SpecificDatumReader<>(writerSchema, schema), bytes);
    }

    private T read(SpecificDatumReader<T> resolving, byte[] bytes) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
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
