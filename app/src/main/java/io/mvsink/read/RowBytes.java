package io.mvsink.read;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** A row's Avro binary in one schema, the key a read consolidates rows by. Not thread-safe: it reuses its buffer. */
final class RowBytes {
    private final GenericDatumWriter<GenericRecord> writer;
    private final Buffer buffer = new Buffer();
    private BinaryEncoder encoder;

    RowBytes(Schema schema) {
        this.writer = new GenericDatumWriter<>(schema);
    }

    /** The row's bytes, valid until the next call (copy what must be kept). */
    ByteBuffer of(GenericRecord row) {
        buffer.reset();
        encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
        try {
            writer.write(row, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a row", e);
        }
        return ByteBuffer.wrap(buffer.bytes(), 0, buffer.size());
    }

    /** A byte stream whose array is read in place. */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }
}
