package io.mvsink.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * schema id: every stored type only ever gains fields with defaults, and readers decode with
 * the writer schema they were written with when given one ({@link #decode(byte[], Schema)}).
 */
public final class SpecificCodec<T extends SpecificRecord> {
    private final Schema schema;
    private final SpecificDatumWriter<T> writer;
    private final SpecificDatumReader<T> reader;

    private SpecificCodec(Class<T> type, Schema schema) {
        this.schema = schema;
        this.writer = new SpecificDatumWriter<>(type);
        this.reader = new SpecificDatumReader<>(type);
    }

    public static <T extends SpecificRecord> SpecificCodec<T> of(Class<T> type) {
        try {
            Schema schema = (Schema) type.getField("SCHEMA$").get(null);
            return new SpecificCodec<>(type, schema);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(type + " is not an Avro specific record", e);
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

    /** Decodes bytes written with this version of the schema. */
    public T decode(byte[] bytes) {
        return decode(bytes, schema);
    }

    /** Decodes bytes written with an older {@code writerSchema}, resolving them to this version. */
    public T decode(byte[] bytes, Schema writerSchema) {
        SpecificDatumReader<T> resolving = writerSchema == schema ? reader
            : new SpecificDatumReader<>(writerSchema, schema);
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
