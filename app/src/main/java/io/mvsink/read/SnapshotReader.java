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
        long updates = 0;
        for (Batch batch : batches) {
            for (Part part : batch.getParts()) {
                updates += part.getUpdates();
            }
        }
        Consolidation nets = new Consolidation((int) Math.min(updates, MAX_PRESIZE));
        PartReader reader = new PartReader(target);
        RowBytes encoded = new RowBytes(target.schema());
        for (Batch batch : batches) {
            for (Part part : batch.getParts()) {
                reader.read(part, batch.getBatchId(), blobs, registry, (row, time, diff) -> {
                    if (time >= lower && time < upper) {
                        nets.add(encoded.of(row), row, time, diff);
                    }
                });
            }
        }
        List<Change> changes = new ArrayList<>(nets.order.size());
        for (TimedNet net : nets.order) {
            if (net.diff != 0) {
                changes.add(Change.rendered(net.record, net.time, net.diff, net.rowBytes));
            }
        }
        // in the order first read, which is nearly time order (parts hold their updates in the order they came), so
        // the sort mostly merges runs; a row renders only to order it among the changes at the same time
        changes.sort(Comparator.comparingLong(Change::time).thenComparing(Change::row));
        return changes;
    }

    /** The most entries a read's consolidation is sized for up front (it grows beyond as needed). */
    private static final int MAX_PRESIZE = 1 << 20;

    /**
     * The net diffs of a range's updates per row and time, keyed by the row's Avro binary in the target schema and
     * the time (rows equal as rendered are equal as encoded: both write every field in schema order, map entries in
     * their order), kept in the order first read.
     */
    private static final class Consolidation {
        private final Map<RowAtTime, TimedNet> nets;
        private final List<TimedNet> order;

        Consolidation(int expected) {
            this.nets = new HashMap<>(Math.max(16, (int) (expected / 0.75f) + 1));
            this.order = new ArrayList<>(expected);
        }

        void add(ByteBuffer row, GenericRecord record, long time, long diff) {
            byte[] bytes = Arrays.copyOfRange(row.array(), row.arrayOffset() + row.position(),
                row.arrayOffset() + row.limit());
            RowAtTime key = new RowAtTime(bytes, time);
            TimedNet net = nets.get(key);
            if (net == null) {
                net = new TimedNet(copy(record), bytes, time);
                nets.put(key, net);
                order.add(net);
            }
            net.diff += diff;
        }
    }

    /** A consolidation key: a row's Avro binary and a time. */
    private static final class RowAtTime {
        private final byte[] row;
        private final long time;
        private final int hash;

        RowAtTime(byte[] row, long time) {
            this.row = row;
            this.time = time;
            this.hash = 31 * Arrays.hashCode(row) + Long.hashCode(time);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RowAtTime k && time == k.time && Arrays.equals(row, k.row);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A row's record (a copy: the part reader reuses its own) and Avro binary, a time, and the sum of its diffs at it. */
    private static final class TimedNet {
        private final GenericRecord record;
        private final byte[] rowBytes;
        private final long time;
        private long diff;

        private TimedNet(GenericRecord record, byte[] rowBytes, long time) {
            this.record = record;
            this.rowBytes = rowBytes;
            this.time = time;
        }
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
