package io.mvsink.read;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.batch.PartEncoder;
import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.ShardState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads a shard's contents as of a time: the parts of every live batch (from a state rebuilt
 * from the consensus topic alone), consolidated to rows with their net counts. Rows are keyed
 * by their Avro JSON rendering, which is what the snapshot command prints.
 */
public final class SnapshotReader {
    private final BlobStore blobs;

    public SnapshotReader(BlobStore blobs) {
        this.blobs = blobs;
    }

    /**
     * Net count per row of every update with {@code time <= asOf}; rows with count 0 are left out.
     *
     * @throws IllegalArgumentException if {@code asOf} is not below the shard's sealed upper
     */
    public Map<String, Long> read(ShardState state, long asOf) {
        if (asOf >= state.upper()) {
            throw new IllegalArgumentException("shard " + state.shard() + " is sealed below " + state.upper()
                + "; --as-of " + asOf + " is not readable yet (use a time below the upper)");
        }
        Map<String, Long> counts = new HashMap<>();
        for (Batch batch : state.batches()) {
            if (batch.getLower() > asOf) {
                continue;
            }
            for (Part part : batch.getParts()) {
                readPart(part, asOf, counts);
            }
        }
        counts.values().removeIf(c -> c == 0);
        return new TreeMap<>(counts);
    }

    private void readPart(Part part, long asOf, Map<String, Long> counts) {
        byte[] bytes = blobs.get(part.getKey());
        try (DataFileReader<GenericRecord> reader =
                 new DataFileReader<>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
            String schemaId = reader.getMetaString(PartEncoder.META_SCHEMA_ID);
            if (schemaId == null || Integer.parseInt(schemaId) != part.getSchemaId()) {
                throw new IllegalStateException("part " + part.getKey() + " carries schema id " + schemaId
                    + " but its batch says " + part.getSchemaId());
            }
            GenericRecord update = null;
            while (reader.hasNext()) {
                update = reader.next(update);
                long time = (Long) update.get("time");
                if (time <= asOf) {
                    String row = GenericData.get().toString(update.get("row"));
                    counts.merge(row, (Long) update.get("diff"), Long::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read part " + part.getKey(), e);
        }
    }
}
