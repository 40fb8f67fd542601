package io.mvsink.read;

import io.mvsink.avro.Part;
import io.mvsink.batch.InlinePartKey;
import io.mvsink.batch.PartEncoder;
import io.mvsink.blob.BlobStore;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.OptionalLong;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads parts into one target row schema, a version of the shard's subject (normally its
 * latest). A part's writer schema is the one in its container file; Avro schema resolution
 * reads it into the target, so a row written under an older version gets the target's
 * defaults for the fields it lacks. This is what lets rows written under different versions
 * of a backward-compatible subject meet: read into the latest version, equal rows are equal.
 *
 * <p>A part stored inline in consensus ({@code Part.inline}) is its updates' Avro binary without a
 * container file: its writer schema is the registry's schema of the part's id, checked against
 * the fingerprint of the schema it was written with, which its key records ({@link InlinePartKey}).
 * An inline part written before fingerprints (key {@code ""}) is read without that check.
 *
 * <p>A part whose metadata does not carry the schema id its batch names, an inline part whose
 * recorded fingerprint is not that of the registry's schema of its id (or whose key is no inline
 * key), or a part whose writer schema the target cannot read, is an {@link UnreadablePartException}; a file that is not a readable
 * Avro container, or inline bytes that end inside an update, is an {@link UncheckedIOException}.
 * Both name the part. What {@link Updates} throws reaches the caller unwrapped. Not thread-safe
 * (the reader reuses its records).
 */
public final class PartReader {
    private final SubjectVersion target;
    private final Schema targetUpdate;

    /** Receives each update of a part, its row read into the target schema. */
    @FunctionalInterface
    public interface Updates {
        /** {@code row} may be reused by the reader after this returns: copy what must be kept. */
        void accept(GenericRecord row, long time, long diff);
    }

    public PartReader(SubjectVersion target) {
        this.target = target;
        this.targetUpdate = PartEncoder.updateSchema(target.schema());
    }

    /** The version rows are read into. */
    public SubjectVersion target() {
        return target;
    }

    /**
     * Reads every update of a part of batch {@code batchId}: from its blob in {@code blobs}, or
     * inline, with the writer schema of its id from {@code registry} (checked against the
     * fingerprint the part's key records).
     *
     * @throws UnreadablePartException as {@link #read(String, byte[], int, Updates)}, or an inline
     *     part's key records another fingerprint than the registry's schema of its id has
     */
    public void read(Part part, String batchId, BlobStore blobs, SchemaRegistry registry, Updates updates) {
        ByteBuffer inline = part.getInline();
        if (inline == null) {
            read(part.getKey(), blobs.get(part.getKey()), part.getSchemaId(), updates);
            return;
        }
        String where = "the inline part (schema id " + part.getSchemaId() + ") of batch " + batchId;
        Schema writerRow = registry.schemaById(part.getSchemaId());
        checkFingerprint(where, part, writerRow);
        Schema writerUpdate = PartEncoder.updateSchema(writerRow);
        checkReadable(where, part.getSchemaId(), writerUpdate);
        GenericDatumReader<GenericRecord> datum = new GenericDatumReader<>(writerUpdate, targetUpdate);
        ByteBuffer bytes = inline.duplicate();
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes.array(),
            bytes.arrayOffset() + bytes.position(), bytes.remaining(), null);
        long read = 0;
        for (GenericRecord update = next(datum, null, decoder, where); update != null;
             update = next(datum, update, decoder, where)) {
            read++;
            updates.accept((GenericRecord) update.get("row"), (Long) update.get("time"), (Long) update.get("diff"));
        }
        if (read != part.getUpdates()) {
            throw new UnreadablePartException(where + " holds " + read + " updates but says " + part.getUpdates());
        }
    }

    /**
     * Checks that the registry's schema of an inline part's id is the one it was written with, by
     * the fingerprint its key records ({@link InlinePartKey}); a part written before fingerprints
     * (key {@code ""}) has nothing to check.
     */
    private static void checkFingerprint(String where, Part part, Schema registered) {
        String key = part.getKey();
        if (!InlinePartKey.isWellFormed(key)) {
            throw new UnreadablePartException(where + " has the key \"" + key + "\", which is neither \"\" nor "
                + InlinePartKey.PREFIX + "<16 hex digits>");
        }
        OptionalLong written = InlinePartKey.recorded(key);
        if (written.isEmpty()) {
            return;
        }
        long found = InlinePartKey.fingerprint(registered);
        if (written.getAsLong() != found) {
            throw new UnreadablePartException(where + " was written with a schema of fingerprint "
                + InlinePartKey.hex(written.getAsLong()) + ", but the registry's schema id " + part.getSchemaId()
                + " has fingerprint " + InlinePartKey.hex(found) + ": the registry no longer holds the schema the part "
                + "was written with (restored with other ids, or the version deleted and its id reused)");
        }
    }

    /** The next update of an inline part, or null at its end; what {@code updates} throws is not caught here. */
    private static GenericRecord next(GenericDatumReader<GenericRecord> datum, GenericRecord reuse,
                                      BinaryDecoder decoder, String where) {
        try {
            return decoder.isEnd() ? null : datum.read(reuse, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + where, e);
        }
    }

    /**
     * Reads every update of the part at {@code key} (its bytes), which its batch says was written
     * with schema id {@code expectedSchemaId}, in file order.
     *
     * @throws UnreadablePartException the metadata id differs, or the target cannot read the writer schema
     */
    public void read(String key, byte[] bytes, int expectedSchemaId, Updates updates) {
        // the writer schema is set from the file when it opens; the target is what records are read into
        GenericDatumReader<GenericRecord> datum = new GenericDatumReader<>(null, targetUpdate);
        try (DataFileReader<GenericRecord> file = new DataFileReader<>(new SeekableByteArrayInput(bytes), datum)) {
            String schemaId = file.getMetaString(PartEncoder.META_SCHEMA_ID);
            if (schemaId == null || !schemaId.equals(Integer.toString(expectedSchemaId))) {
                throw new UnreadablePartException("part " + key + " carries schema id " + schemaId
                    + " but its batch says " + expectedSchemaId);
            }
            checkReadable("part " + key, expectedSchemaId, file.getSchema());
            GenericRecord update = null;
            while (file.hasNext()) {
                update = file.next(update);
                updates.accept((GenericRecord) update.get("row"), (Long) update.get("time"), (Long) update.get("diff"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read part " + key, e);
        }
    }

    private void checkReadable(String what, int writerId, Schema writerUpdate) {
        SchemaCompatibility.SchemaPairCompatibility check =
            SchemaCompatibility.checkReaderWriterCompatibility(targetUpdate, writerUpdate);
        if (check.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new UnreadablePartException(what + " was written with schema id " + writerId
                + ", which the target schema (id " + target.id() + " of subject " + target.subject()
                + ") cannot read: " + check.getDescription());
        }
    }
}
