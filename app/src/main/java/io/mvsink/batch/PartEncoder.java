package io.mvsink.batch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Encodes updates as Avro object container files of {@code (row, time, diff)}, cutting a new
 * part once the current one holds {@code targetBytes} of encoded updates. Rows are copied as
 * the Avro binary they arrived in (an Avro record's binary form is its fields' binary forms in
 * order), so nothing is decoded on the way to storage. Cost is linear in the updates.
 */
public final class PartEncoder {
    /** File metadata keys. */
    public static final String META_SCHEMA_ID = "mvsink.schema.id";
    public static final String META_SHARD = "mvsink.shard";
    public static final String META_LOWER = "mvsink.lower";
    public static final String META_UPPER = "mvsink.upper";
    public static final String META_BATCH = "mvsink.batch";

    private final CodecFactory codec;
    private final long targetBytes;

    public PartEncoder(String codecName, long targetBytes) {
        this.codec = CodecFactory.fromString(codecName);
        this.targetBytes = targetBytes;
    }

    /** One encoded part: the container file's bytes and how many updates it holds. */
    public record EncodedPart(byte[] bytes, long updates) {
    }

    /** The schema of a part's records for a given row schema. */
    public static Schema updateSchema(Schema rowSchema) {
        List<Schema.Field> fields = List.of(
            new Schema.Field("row", rowSchema),
            new Schema.Field("time", Schema.create(Schema.Type.LONG)),
            new Schema.Field("diff", Schema.create(Schema.Type.LONG)));
        return Schema.createRecord("Update", "a (row, time, diff) correction", "io.mvsink.part", false, fields);
    }

    /**
     * Encodes updates that were all written with {@code rowSchema}; {@code meta} goes into every
     * part's file metadata (it must hold {@link #META_SCHEMA_ID}).
     */
    public List<EncodedPart> encode(Schema rowSchema, Map<String, String> meta, List<Update> updates) {
        if (!meta.containsKey(META_SCHEMA_ID)) {
            throw new IllegalArgumentException("a part must carry its schema id (" + META_SCHEMA_ID + ")");
        }
        Schema schema = updateSchema(rowSchema);
        List<EncodedPart> parts = new ArrayList<>();
        ByteArrayOutputStream datum = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(datum, null);
        try {
            PartSink sink = null;
            for (Update update : updates) {
                if (sink == null) {
                    sink = new PartSink(schema, meta);
                }
                datum.reset();
                encoder.writeFixed(update.row());
                encoder.writeLong(update.time());
                encoder.writeLong(update.diff());
                encoder.flush();
                sink.append(datum.toByteArray());
                if (sink.bytes >= targetBytes) {
                    parts.add(sink.finish());
                    sink = null;
                }
            }
            if (sink != null) {
                parts.add(sink.finish());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a part", e);
        }
        return parts;
    }

    /** One container file being written, with running totals. */
    private final class PartSink {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>());
        private long bytes;
        private long updates;

        PartSink(Schema schema, Map<String, String> meta) throws IOException {
            writer.setCodec(codec);
            meta.forEach(writer::setMeta);
            writer.create(schema, out);
        }

        void append(byte[] encodedDatum) throws IOException {
            writer.appendEncoded(ByteBuffer.wrap(encodedDatum));
            bytes += encodedDatum.length;
            updates++;
        }

        EncodedPart finish() throws IOException {
            writer.close();
            return new EncodedPart(out.toByteArray(), updates);
        }
    }
}
