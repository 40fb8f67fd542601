package io.mvsink.registry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Rows of one subject to and from the Confluent wire format. A writer schema is registered once
 * per codec; writer schemas are fetched by id once. Decoding is strict: a payload that is
 * truncated, malformed or followed by trailing bytes is a {@link BadWireFormatException} with
 * reason {@link BadWireFormatException#UNDECODABLE}. Thread-safe.
 */
public final class AvroRowCodec {
    private final SchemaRegistry registry;
    private final String subject;
    private final Map<Schema, Writer> writers = new ConcurrentHashMap<>();
    private final Map<Integer, DatumReader<GenericRecord>> readers = new ConcurrentHashMap<>();
    private final Map<Integer, RowValidator> validators = new ConcurrentHashMap<>();

    private record Writer(int schemaId, DatumWriter<GenericRecord> datumWriter) {
    }

    /** A codec that registers writer schemas under {@code subject} of {@code registry}. */
    public AvroRowCodec(SchemaRegistry registry, String subject) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.subject = Objects.requireNonNull(subject, "subject");
    }

    /** The subject writer schemas are registered under. */
    public String subject() {
        return subject;
    }

    /** The id of {@code schema} in the registry, registering it under the subject on first use. */
    public int schemaId(Schema schema) {
        return writer(schema).schemaId();
    }

    /** The wire-format bytes of {@code row}, tagged with the id of its schema. */
    public byte[] serialize(GenericRecord row) {
        Writer writer = writer(row.getSchema());
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(WireFormat.MAGIC);
        out.write(writer.schemaId() >>> 24);
        out.write(writer.schemaId() >>> 16);
        out.write(writer.schemaId() >>> 8);
        out.write(writer.schemaId());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.datumWriter().write(row, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a row of subject " + subject, e);
        }
        return out.toByteArray();
    }

    /**
     * The row in {@code framed}, read with its writer schema.
     *
     * @throws BadWireFormatException the bytes are not a well-formed, fully consumed value
     * @throws UnknownSchemaException the registry has no schema with the value's id
     */
    public GenericRecord deserialize(byte[] framed) {
        int id = WireFormat.schemaId(framed);
        DatumReader<GenericRecord> reader = reader(id);
        int length = framed.length - WireFormat.HEADER_SIZE;
        BoundedDecoder decoder = new BoundedDecoder(
                DecoderFactory.get().binaryDecoder(framed, WireFormat.HEADER_SIZE, length, null), length);
        GenericRecord row;
        boolean consumed;
        try {
            row = reader.read(null, decoder);
            consumed = decoder.isEnd();
        } catch (IOException | RuntimeException e) {
            throw undecodable(id, framed, e.toString(), e);
        }
        if (!consumed) {
            throw undecodable(id, framed, "trailing bytes after the value", null);
        }
        return row;
    }

    /**
     * Walks {@code framed} under its writer schema without building the row ({@link RowValidator}:
     * it accepts what {@link #deserialize} accepts) and returns its writer schema id if it is well formed.
     *
     * @throws BadWireFormatException with reason {@code too-short}, {@code bad-magic} or {@code undecodable}
     * @throws UnknownSchemaException the registry has no schema with the value's id
     */
    public int validate(byte[] framed) {
        int id = WireFormat.schemaId(framed);
        RowValidator validator = validators.get(id);
        if (validator == null) {
            validator = new RowValidator(registry.schemaById(id));
            RowValidator raced = validators.putIfAbsent(id, validator);
            validator = raced != null ? raced : validator;
        }
        int length = framed.length - WireFormat.HEADER_SIZE;
        BoundedDecoder decoder = new BoundedDecoder(
                DecoderFactory.get().binaryDecoder(framed, WireFormat.HEADER_SIZE, length, null), length);
        boolean consumed;
        try {
            validator.walk(decoder);
            consumed = decoder.isEnd();
        } catch (IOException | RuntimeException e) {
            throw undecodable(id, framed, e.toString(), e);
        }
        if (!consumed) {
            throw undecodable(id, framed, "trailing bytes after the value", null);
        }
        return id;
    }

    private Writer writer(Schema schema) {
        Writer writer = writers.get(schema);
        if (writer == null) {
            int id = registry.register(subject, schema);
            writer = new Writer(id, new GenericDatumWriter<>(schema));
            Writer raced = writers.putIfAbsent(schema, writer);
            writer = raced != null ? raced : writer;
        }
        return writer;
    }

    private DatumReader<GenericRecord> reader(int id) {
        DatumReader<GenericRecord> reader = readers.get(id);
        if (reader == null) {
            reader = new GenericDatumReader<>(registry.schemaById(id));
            DatumReader<GenericRecord> raced = readers.putIfAbsent(id, reader);
            reader = raced != null ? raced : reader;
        }
        return reader;
    }

    private BadWireFormatException undecodable(int id, byte[] framed, String why, Throwable cause) {
        return new BadWireFormatException(BadWireFormatException.UNDECODABLE, "value of " + framed.length
                + " bytes with schema id " + id + " (subject " + subject + ") does not decode: " + why, cause);
    }
}
