package io.mvsink.compact;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.batch.BlobKeys;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.PartWriter;
import io.mvsink.batch.Update;
import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.CoverCheck;
import io.mvsink.read.PartReader;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import io.mvsink.time.TimeRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.utils.Time;

/**
 * {@link BatchMerge} over blob storage: reads every part of the input batches (from blobs or
 * inline) into the subject's
 * latest schema ({@link PartReader}), advances times below since to since, consolidates, and
 * writes the result as new write-once parts of the latest schema, sorted by {@code (time, row
 * bytes)} and cut at the encoder's target bytes. The result is always blobs: a merge is how
 * inline data leaves consensus.
 *
 * <p>Rows are compared by their Avro binary in the latest schema: rows written under different
 * versions of the subject that read into equal latest-version rows consolidate. A sum that
 * overflows a long fails the merge (an {@link ArithmeticException} naming the shard, range and
 * time); nothing is written then.
 *
 * <p><b>Memory:</b> the whole consolidated result is held in memory (a sorted map from
 * {@code (time, row)} to diff) until it is written; only one part is encoded at a time. The
 * caller bounds it by capping the bytes of the batches it hands to one merge.
 *
 * <p>Thread-safe: a merge keeps its state on its own stack.
 */
public final class BatchMerger implements BatchMerge {
    private static final Comparator<Key> ORDER =
        Comparator.comparingLong(Key::time).thenComparing(Key::row, Arrays::compareUnsigned);

    private final BlobStore blobs;
    private final SchemaRegistry registry;
    private final String subject;
    private final PartEncoder encoder;
    private final String blobPrefix;
    private final String owner;
    private final Time time;

    /** One consolidated {@code (time, row)}: the row as Avro binary in the latest schema. */
    private record Key(long time, byte[] row) {
    }

    /**
     * @param subject    the shard's registry subject; rows are read into its latest version
     * @param blobPrefix the shard's key prefix; parts go to {@link BlobKeys#part}
     * @param owner      the owner the merged parts are written with ({@link io.mvsink.blob.BlobOwner#value()})
     */
    public BatchMerger(BlobStore blobs, SchemaRegistry registry, String subject, PartEncoder encoder,
                       String blobPrefix, String owner, Time time) {
        this.blobs = blobs;
        this.registry = registry;
        this.subject = subject;
        this.encoder = encoder;
        this.blobPrefix = blobPrefix;
        this.owner = owner;
        this.time = time;
    }

    @Override
    public Batch merge(String shard, int partitionCount, List<Batch> batches, long since) {
        TimeRange range = checkCover(shard, partitionCount, batches);
        String where = "shard " + shard + " [" + range.lower() + ", " + range.upper() + ")";
        boolean anyParts = batches.stream().anyMatch(b -> !b.getParts().isEmpty());
        SubjectVersion latest = anyParts ? registry.latest(subject) : null;
        TreeMap<Key, Long> consolidated = anyParts ? read(where, batches, since, latest) : new TreeMap<>(ORDER);
        return write(shard, partitionCount, range, latest, consolidated);
    }

    /** The range the batches tile exactly once per partition; IllegalArgumentException if they do not. */
    private static TimeRange checkCover(String shard, int partitionCount, List<Batch> batches) {
        if (batches.isEmpty() || partitionCount < 1) {
            throw new IllegalArgumentException("shard " + shard + ": nothing to merge (" + batches.size()
                + " batches, " + partitionCount + " partitions)");
        }
        for (Batch batch : batches) {
            if (!batch.getShard().equals(shard)) {
                throw new IllegalArgumentException("shard " + shard + ": batch " + batch.getBatchId()
                    + " belongs to shard " + batch.getShard());
            }
        }
        TimeRange range = CoverCheck.range(batches);
        List<String> problems = CoverCheck.problems(partitionCount, range.lower(), range.upper(), batches);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("shard " + shard + ": the batches to merge are not an exact cover of ["
                + range.lower() + ", " + range.upper() + ") for " + partitionCount + " partitions: " + problems);
        }
        return range;
    }

    private TreeMap<Key, Long> read(String where, List<Batch> batches, long since, SubjectVersion latest) {
        TreeMap<Key, Long> consolidated = new TreeMap<>(ORDER);
        PartReader reader = new PartReader(latest);
        RowEncoder rows = new RowEncoder(latest.schema());
        for (Batch batch : batches) {
            for (Part part : batch.getParts()) {
                reader.read(part, batch.getBatchId(), blobs, registry, (row, t, diff) -> {
                    Key key = new Key(Math.max(t, since), rows.encode(row));
                    consolidated.merge(key, diff, (a, b) -> add(where, key.time(), a, b));
                });
            }
        }
        return consolidated;
    }

    /** {@code a + b}; null (the entry goes) when it is 0. */
    private static Long add(String where, long time, long a, long b) {
        long sum;
        try {
            sum = Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new ArithmeticException(where + ": the diffs of one row at time " + time
                + " overflow a long (" + a + " + " + b + "); the batches cannot be merged");
        }
        return sum == 0 ? null : sum;
    }

    private Batch write(String shard, int partitionCount, TimeRange range, SubjectVersion latest,
                        TreeMap<Key, Long> consolidated) {
        String batchId = UUID.randomUUID().toString();
        long closedAt = time.milliseconds();
        List<Part> parts = new ArrayList<>();
        long bytes = 0;
        PartWriter writer = null;
        for (Map.Entry<Key, Long> e : consolidated.entrySet()) {
            if (writer == null) {
                writer = encoder.open(latest.schema(), meta(shard, range, batchId, latest.id()));
            }
            writer.add(new Update(e.getKey().time(), latest.id(), e.getKey().row(), e.getValue()));
            if (writer.bytes() >= encoder.targetBytes()) {
                bytes += put(writer, range, batchId, latest.id(), parts);
                writer = null;
            }
        }
        if (writer != null) {
            bytes += put(writer, range, batchId, latest.id(), parts);
        }
        List<Contribution> contributions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            contributions.add(new Contribution(p, range.lower(), range.upper(), 0L));
        }
        return Batch.newBuilder()
            .setBatchId(batchId).setShard(shard).setLower(range.lower()).setUpper(range.upper())
            .setSchemaIds(parts.isEmpty() ? List.of() : List.of(latest.id()))
            .setContributions(contributions).setParts(parts).setUpdates((long) consolidated.size())
            .setBytes(bytes).setClosedAtMs(closedAt)
            .build();
    }

    /** Finishes the part, writes it write-once and returns its size. */
    private long put(PartWriter writer, TimeRange range, String batchId, int schemaId, List<Part> parts) {
        PartEncoder.EncodedPart encoded = writer.finish();
        String key = BlobKeys.part(blobPrefix, range.lower(), range.upper(), batchId, parts.size());
        blobs.putIfAbsent(key, encoded.bytes(), owner);
        parts.add(new Part(key, schemaId, (long) encoded.bytes().length, encoded.updates(), null));
        return encoded.bytes().length;
    }

    private static Map<String, String> meta(String shard, TimeRange range, String batchId, int schemaId) {
        Map<String, String> meta = new HashMap<>();
        meta.put(PartEncoder.META_SCHEMA_ID, Integer.toString(schemaId));
        meta.put(PartEncoder.META_SHARD, shard);
        meta.put(PartEncoder.META_LOWER, Long.toString(range.lower()));
        meta.put(PartEncoder.META_UPPER, Long.toString(range.upper()));
        meta.put(PartEncoder.META_BATCH, batchId);
        return meta;
    }
}
