package io.mvsink.read;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.ShardState;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import io.mvsink.consensus.CoverCheck;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.function.Predicate;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads a shard's contents as of a time: the parts of every live batch (from a state rebuilt
 * from the consensus topic alone), consolidated to rows with their net counts; and the changes of
 * a range of times ({@link #changes}), which is what a {@link Subscription} delivers per seal.
 *
 * <p>Every part is read into the latest schema of the shard's subject ({@link PartReader}), fetched
 * once per read, so rows written under different versions meet: a row inserted under one version
 * and retracted under a later one cancels, and every row renders with the latest version's
 * fields (defaults where its writer schema lacked them). A snapshot keys rows by their Avro JSON
 * rendering, which is what the snapshot command prints; {@link #changes} keys them by their Avro
 * binary in that schema ({@link RowBytes}), cheaper and equal for equal rows, and renders a change's
 * row only when it is asked for (or needed to order changes at one time).
 *
 * <p>A snapshot reads any time at or above the shard's since (compaction may have advanced older
 * times to since) and below its sealed upper.
 */
public final class SnapshotReader {
    private final BlobStore blobs;
    private final SchemaRegistry registry;
    private final String subject;

    /** A reader of the parts in {@code blobs}, into the latest schema of {@code subject} in {@code registry}. */
    public SnapshotReader(BlobStore blobs, SchemaRegistry registry, String subject) {
        this.blobs = blobs;
        this.registry = registry;
        this.subject = subject;
    }

    /** The latest schema of the subject now: what the next read reads rows into. */
    public Schema rowSchema() {
        return registry.latest(subject).schema();
    }

    /**
     * Net count per row of every update with {@code time <= asOf}; rows with count 0 are left out.
     *
     * @throws IllegalArgumentException if {@code asOf} is not below the shard's sealed upper, or is below its since
     * @throws UnreadablePartException if a part's schema id disagrees with its batch or the latest schema cannot read it
     */
    public Map<String, Long> read(ShardState state, long asOf) {
        Map<String, Long> counts = new TreeMap<>();
        rows(state, asOf).forEach(c -> counts.put(c.row(), c.diff()));
        return counts;
    }

    /**
     * As {@link #read}, with each row's record: one {@link Change} per row with a net count other
     * than 0, at time {@code asOf} with the count as its diff, in row order.
     *
     * @throws IllegalArgumentException as {@link #read}
     * @throws UnreadablePartException as {@link #read}
     */
    public List<Change> rows(ShardState state, long asOf) {
        if (asOf >= state.upper()) {
            throw new IllegalArgumentException("shard " + state.shard() + " is sealed below " + state.upper()
                + "; as-of " + asOf + " is not readable yet (use a time below the upper)");
        }
        if (asOf < state.since()) {
            throw new IllegalArgumentException("shard " + state.shard() + " is readable from its since "
                + state.since() + " (compaction may have advanced older times to it); as-of " + asOf
                + " is below it (use a time at or above " + state.since() + ")");
        }
        Map<String, Net> counts = new TreeMap<>();
        scan(state, batch -> batch.getLower() <= asOf, (row, time, diff) -> {
            if (time <= asOf) {
                counts.computeIfAbsent(GenericData.get().toString(row), r -> new Net(copy(row))).diff += diff;
            }
        });
        List<Change> rows = new ArrayList<>();
        counts.forEach((row, net) -> {
            if (net.diff != 0) {
                rows.add(new Change(row, asOf, net.diff, net.record));
            }
        });
        return rows;
    }

    /** A row's record (a copy: the part reader reuses its own) and the sum of its diffs so far. */
    private static final class Net {
        private final GenericRecord record;
        private long diff;

        private Net(GenericRecord record) {
            this.record = record;
        }
    }

    private static GenericRecord copy(GenericRecord row) {
        return GenericData.get().deepCopy(row.getSchema(), row);
    }

    /**
     * The updates with {@code lower <= time < upper}, consolidated per row and time, in time order
     * (then row order), leaving out net diffs of 0. They are read from whatever live batches cover
     * the range now, so merges that replaced the batches a seal added do not change the answer: a
     * merge keeps each update's time unless it is below the since, and {@code lower} must be above
     * the since ({@link ResumeToken#requireReadable}).
     *
     * @throws IllegalArgumentException if {@code upper} is above the shard's upper, or {@code lower} not above its since
     * @throws UnreadablePartException as {@link #read}
     */
    public List<Change> changes(ShardState state, long lower, long upper) {
        if (upper > state.upper()) {
            throw new IllegalArgumentException("shard " + state.shard() + " is sealed below " + state.upper()
                + "; [" + lower + ", " + upper + ") is not sealed yet");
        }
        ResumeToken.requireAboveSince("[" + lower + ", " + upper + ")", lower, state);
        List<Batch> covering = new ArrayList<>();
        for (Batch batch : state.batches()) {
            if (CoverCheck.range(List.of(batch)).overlaps(lower, upper)) {
                covering.add(batch);
            }
        }
        return changes(covering, latest(), lower, upper);
    }

    /** The latest version of the subject now: what {@link #changes(List, SubjectVersion, long, long)} reads into. */
    SubjectVersion latest() {
        return registry.latest(subject);
    }

    /**
     * As {@link #changes(ShardState, long, long)}, from {@code batches} (the live batches that cover the range,
     * chosen by the caller from the state), their rows read into {@code target}. It touches no state, so it may
     * run on another thread than the one that follows the shard (the store and registry are thread-safe).
     */
    List<Change> changes(List<Batch> batches, SubjectVersion target, long lower, long upper) {
        Map<ByteBuffer, Map<Long, Net>> diffs = new HashMap<>();
        PartReader reader = new PartReader(target);
        RowBytes encoded = new RowBytes(target.schema());
        for (Batch batch : batches) {
            for (Part part : batch.getParts()) {
                reader.read(part, batch.getBatchId(), blobs, registry, (row, time, diff) -> {
                    if (time >= lower && time < upper) {
                        add(diffs, encoded.of(row), row, time, diff);
                    }
                });
            }
        }
        List<Change> changes = new ArrayList<>();
        diffs.values().forEach(byTime -> byTime.forEach((time, net) -> {
            if (net.diff != 0) {
                changes.add(Change.rendered(net.record, time, net.diff));
            }
        }));
        // a row renders only to order it among the changes at the same time
        changes.sort(Comparator.comparingLong(Change::time).thenComparing(Change::row));
        return changes;
    }

    /**
     * Adds one update to the net diffs, keyed by the row's Avro binary in the target schema (rows equal as
     * rendered are equal as encoded: both write every field in schema order, map entries in their order).
     */
    private static void add(Map<ByteBuffer, Map<Long, Net>> diffs, ByteBuffer key, GenericRecord row, long time,
                            long diff) {
        Map<Long, Net> byTime = diffs.get(key);
        if (byTime == null) {
            byTime = new HashMap<>();
            diffs.put(ByteBuffer.wrap(Arrays.copyOf(key.array(), key.remaining())), byTime);
        }
        Net net = byTime.get(time);
        if (net == null) {
            // one copy per row: the row's other times share it
            net = new Net(byTime.isEmpty() ? copy(row) : byTime.values().iterator().next().record);
            byTime.put(time, net);
        }
        net.diff += diff;
    }

    /** Every update of the parts of the live batches that {@code batches} accepts. */
    private void scan(ShardState state, Predicate<Batch> batches, PartReader.Updates updates) {
        PartReader parts = null;
        for (Batch batch : state.batches()) {
            if (!batches.test(batch)) {
                continue;
            }
            for (Part part : batch.getParts()) {
                if (parts == null) {
                    parts = new PartReader(registry.latest(subject));
                }
                parts.read(part, batch.getBatchId(), blobs, registry, updates);
            }
        }
    }
}
