package io.mvsink.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;

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

    /** A writer for one new part of rows written with {@code rowSchema}; {@code meta} must hold the schema id. */
    public PartWriter open(Schema rowSchema, Map<String, String> meta) {
        return open(rowSchema, meta, 0);
    }

    /**
     * As {@link #open(Schema, Map)}, and the writer keeps its encoded updates for storing inline
     * while they total at most {@code inlineLimit} bytes ({@link PartWriter#inline()}), to be stored
     * under {@link PartWriter#inlineKey()}.
     */
    public PartWriter open(Schema rowSchema, Map<String, String> meta, long inlineLimit) {
        if (!meta.containsKey(META_SCHEMA_ID)) {
            throw new IllegalArgumentException("a part must carry its schema id (" + META_SCHEMA_ID + ")");
        }
        return new PartWriter(codec, rowSchema, meta, targetBytes, inlineLimit);
    }

    /** A part is cut once it holds this many bytes of encoded updates. */
    public long targetBytes() {
        return targetBytes;
    }

    /**
     * Encodes updates that were all written with {@code rowSchema}; {@code meta} goes into every
     * part's file metadata (it must hold {@link #META_SCHEMA_ID}).
     */
    public List<EncodedPart> encode(Schema rowSchema, Map<String, String> meta, List<Update> updates) {
        List<EncodedPart> parts = new ArrayList<>();
        PartWriter writer = null;
        for (Update update : updates) {
            if (writer == null) {
                writer = open(rowSchema, meta);
            }
            writer.add(update);
            if (writer.bytes() >= targetBytes) {
                parts.add(writer.finish());
                writer = null;
            }
        }
        if (writer != null) {
            parts.add(writer.finish());
        }
        return parts;
    }
}
