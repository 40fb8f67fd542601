package io.mvsink.compact;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Rows of one schema to their Avro binary, reusing its buffers. Not thread-safe. */
final class RowEncoder {
    private final Schema schema;
    private final GenericDatumWriter<GenericRecord> writer;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);

    RowEncoder(Schema schema) {
        this.schema = schema;
        this.writer = new GenericDatumWriter<>(schema);
    }

    byte[] encode(GenericRecord row) {
        out.reset();
        try {
            writer.write(row, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a row of " + schema.getFullName(), e);
        }
        return out.toByteArray();
    }
}
