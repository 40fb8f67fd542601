package io.mvsink.topology;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.RetiredBlob;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard's single writer: one Kafka Streams task (the reports topic's partition) under
 * {@code exactly_once_v2}, so its state, its input offsets and the consensus records it writes
 * commit atomically and a zombie is fenced. For each report it keeps the batch as pending,
 * looks for an exact cover from the current upper ({@link SealCover}), and if there is one
 * appends it: one state-diff record whose {@code lower} is the current upper. A batch that
 * starts below the upper, or that closed too long ago for the blob GC's grace, can never be
 * part of a cover: it is rejected, counted as a mismatch, and its blobs are recorded as garbage.
 *
 * <p>It also keeps the shard's state bounded: it commits the merges of {@link Compactions} as
 * compaction appends (upper unchanged, the merged batches replaced), advances since, and every
 * {@code rollupAppends} appends writes a rollup of the full state and tombstones the diffs it
 * covers. Every record it writes is first applied to its own {@link ShardState}, which checks it
 * exactly as a reader will.
 */
final class AppenderProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(AppenderProcessor.class);
    private static final String STATE_KEY = "state/";
    private static final String PENDING_KEY = "pending/";
    private static final String LIVE_KEY = "live/";
    private static final String RETIRED_KEY = "retired/";
    /** A rollup larger than this is not written (the producer's default request limit is 1 MiB). */
    static final int MAX_ROLLUP_BYTES = 900 * 1024;

    private final SinkContext sink;
    private final SinkContext.Upkeep upkeep;
    private final Grid grid;
    private final Map<String, Batch> pending = new LinkedHashMap<>();
    private final Compactions compactions;
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<String, byte[]> store;
    private AppenderState state;
    private ShardState model;

    AppenderProcessor(SinkContext sink) {
        this.sink = sink;
        this.upkeep = sink.upkeep();
        this.grid = new Grid(sink.intervalMs());
        this.compactions = new Compactions(sink.shard(), upkeep, sink.metrics());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.store = context.getStateStore(StoreNames.APPENDER);
        byte[] stored = store.get(STATE_KEY + sink.shard());
        state = stored == null
            ? new AppenderState(sink.shard(), 0L, 0L, sink.partitionCount(), new ArrayList<>(), 0L, 0L)
            : Codecs.APPENDER_STATE.decode(stored);
        if (state.getPartitionCount() != sink.partitionCount()) {
            throw new IllegalStateException("shard " + sink.shard() + " was sealed over " + state.getPartitionCount()
                + " partitions but its corrections topic now has " + sink.partitionCount()
                + "; changing a shard's partition count is not supported");
        }
        scan(PENDING_KEY, (key, value) -> pending.put(key, Codecs.BATCH.decode(value)));
        List<Batch> live = new ArrayList<>();
        scan(LIVE_KEY, (key, value) -> live.add(Codecs.BATCH.decode(value)));
        if (state.getSeqno() > 0 && live.isEmpty()) {
            live.addAll(liveFromMirror());
        }
        List<RetiredBlob> retired = new ArrayList<>();
        scan(RETIRED_KEY, (key, value) -> retired.add(retiredOf(key)));
        model = ShardState.of(StateRollup.newBuilder().setShard(sink.shard()).setSeqno(state.getSeqno())
            .setUpper(state.getUpper()).setSince(state.getSince()).setPartitionCount(state.getPartitionCount())
            .setBatches(live).setRetired(retired).setRolledUpAtMs(0L).build());
        context.schedule(Duration.ofMillis(sink.punctuateMs()), PunctuationType.WALL_CLOCK_TIME, this::tick);
    }

    /**
     * The live batches of a shard whose appender store has none yet (it was written by a version
     * that did not keep them: every append adds a batch, so a shard with appends has some), from
     * the global consensus mirror, which Kafka Streams restores to the topic's end before any
     * task starts. They are kept in the store from now on.
     */
    private List<Batch> liveFromMirror() {
        ShardState mirrored = ConsensusMirror.state(context.getStateStore(StoreNames.CONSENSUS), sink.shard());
        if (mirrored.seqno() != state.getSeqno()) {
            throw new IllegalStateException("shard " + sink.shard() + ": the appender store (written by an earlier "
                + "version) is at seqno " + state.getSeqno() + " but the consensus mirror at " + mirrored.seqno()
                + "; restart the app so that the mirror catches up");
        }
        List<Batch> live = new ArrayList<>(mirrored.batches());
        live.forEach(b -> store.put(LIVE_KEY + sink.shard() + "/" + b.getBatchId(), Codecs.BATCH.encode(b)));
        LOG.info("shard {}: took {} live batches from the consensus mirror at seqno {}", sink.shard(), live.size(),
            state.getSeqno());
        return live;
    }

    private void scan(String kind, java.util.function.BiConsumer<String, byte[]> each) {
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(kind + sink.shard() + "/", new StringSerializer())) {
            it.forEachRemaining(kv -> each.accept(kv.key, kv.value));
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        BatchReport report = Codecs.REPORT.decode(record.value());
        Batch batch = report.getBatch();
        if (!sink.shard().equals(batch.getShard())) {
            LOG.warn("appender of shard {} ignores a report for shard {}", sink.shard(), batch.getShard());
            return;
        }
        String invalid = invalid(batch);
        if (invalid != null) {
            reject(batch, invalid);
            return;
        }
        String key = PENDING_KEY + sink.shard() + "/" + batch.getBatchId();
        pending.put(key, batch);
        store.put(key, Codecs.BATCH.encode(batch));
        Optional<SealCover.Cover> cover = SealCover.find(state.getUpper(), state.getPartitionCount(), pending.values());
        if (cover.isPresent()) {
            seal(cover.get());
        } else {
            saveState();
        }
        compactions.maybeStart(model, sink.time().milliseconds());
    }

    /** Commits a finished merge and starts the next one (wall-clock punctuation). */
    private void tick(long wallClock) {
        long now = sink.time().milliseconds();
        compactions.poll(now).ifPresent(this::commitMerge);
        compactions.maybeStart(model, now);
    }

    /** Why a batch can never be part of a cover from the current upper, or null. */
    private String invalid(Batch batch) {
        Set<Integer> seen = new HashSet<>();
        if (batch.getContributions().isEmpty()) {
            return "batch holds no contribution";
        }
        if (tooOld(batch)) {
            return "closed at " + batch.getClosedAtMs() + ", more than " + upkeep.maxBatchAgeMs()
                + " ms ago (half of gc.grace.ms): its blobs may be collected";
        }
        for (Contribution c : batch.getContributions()) {
            if (c.getPartition() < 0 || c.getPartition() >= state.getPartitionCount() || !seen.add(c.getPartition())) {
                return "batch holds partition " + c.getPartition() + " twice or out of range";
            }
            if (c.getLower() >= c.getUpper()) {
                return "empty contribution range for partition " + c.getPartition();
            }
            if (c.getLower() < state.getUpper()) {
                return "stale: contribution of partition " + c.getPartition() + " starts at " + c.getLower()
                    + " below the shard's upper " + state.getUpper();
            }
        }
        return null;
    }

    /** A batch closed more than half the GC grace ago may lose its blobs to the GC: never seal it. */
    private boolean tooOld(Batch batch) {
        return batch.getClosedAtMs() > 0 && batch.getClosedAtMs() < sink.time().milliseconds() - upkeep.maxBatchAgeMs();
    }

    private void reject(Batch batch, String why) {
        sink.metrics().mismatch();
        LOG.info("shard {}: rejected batch {} [{}, {}): {}", sink.shard(), batch.getBatchId(),
            batch.getLower(), batch.getUpper(), why);
        batch.getParts().forEach(p -> state.getPendingGarbage().add(p.getKey()));
        saveState();
    }

    private void seal(SealCover.Cover cover) {
        long lower = state.getUpper();
        Set<String> used = new HashSet<>();
        cover.batches().forEach(b -> used.add(b.getBatchId()));
        List<String> garbage = new ArrayList<>(state.getPendingGarbage());
        var it = pending.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            Batch batch = entry.getValue();
            boolean unusable = tooOld(batch)
                || batch.getContributions().stream().anyMatch(c -> c.getLower() < cover.upper());
            if (used.contains(batch.getBatchId()) || unusable) {
                if (!used.contains(batch.getBatchId())) {
                    batch.getParts().forEach(p -> garbage.add(p.getKey()));
                    sink.metrics().mismatch();
                }
                store.delete(entry.getKey());
                it.remove();
            }
        }
        long now = sink.time().milliseconds();
        long since = upkeep.sinceLagMs() < 0 ? state.getSince()
            : Math.max(state.getSince(), grid.floor(Math.max(0, cover.upper() - Math.max(upkeep.sinceLagMs(), grid.width()))));
        byte[] value = commit(diff(lower, cover.upper(), cover.batches(), List.of(), garbage, since, now));
        long closedAt = cover.batches().stream().mapToLong(Batch::getClosedAtMs).max().orElse(now);
        int parts = cover.batches().stream().mapToInt(b -> b.getParts().size()).sum();
        // the first append seals the empty prefix [0, first interval) too: count it as one
        long intervals = lower == 0 ? 1 : grid.intervals(lower, cover.upper());
        sink.metrics().appended(intervals, cover.batches().size(), parts,
            value.length, Math.max(0, now - closedAt));
        LOG.debug("shard {}: append {} sealed [{}, {}) with {} batches", sink.shard(), state.getSeqno(), lower,
            cover.upper(), cover.batches().size());
    }

    /** Commits a merge unless its batches are no longer all live or it is too old: then its parts are garbage. */
    private void commitMerge(Compactions.Merged merged) {
        boolean live = merged.replaced().stream().allMatch(id -> model.batch(id) != null);
        if (!live || tooOld(merged.batch())) {
            sink.metrics().compactionConflict();
            LOG.info("shard {}: merged batch {} not committed ({})", sink.shard(), merged.batch().getBatchId(),
                live ? "too old" : "its batches changed meanwhile");
            merged.batch().getParts().forEach(p -> state.getPendingGarbage().add(p.getKey()));
            saveState();
            return;
        }
        long now = sink.time().milliseconds();
        commit(diff(state.getUpper(), state.getUpper(), List.of(merged.batch()), merged.replaced(),
            new ArrayList<>(state.getPendingGarbage()), state.getSince(), now));
        sink.metrics().compacted(merged.replaced().size());
    }

    private StateDiff diff(long lower, long upper, List<Batch> added, List<String> removed, List<String> garbage,
                           long since, long now) {
        return StateDiff.newBuilder()
            .setShard(sink.shard()).setSeqno(state.getSeqno() + 1).setLower(lower).setUpper(upper)
            .setPartitionCount(state.getPartitionCount()).setAdded(added)
            .setRemovedBatchIds(removed).setGarbageBlobs(garbage).setAppendedAtMs(now).setSince(since)
            .build();
    }

    /**
     * Applies {@code diff} to the model (which checks it as a reader would), writes it, keeps the
     * live batches and retired blobs in the store, and writes a rollup when one is due.
     */
    private byte[] commit(StateDiff diff) {
        List<Batch> removed = diff.getRemovedBatchIds().stream().map(model::batch).toList();
        model.apply(diff);
        byte[] value = Codecs.STATE_DIFF.encode(diff);
        forward(ConsensusKeys.diff(sink.shard(), diff.getSeqno()), value, diff.getAppendedAtMs());
        for (Batch batch : removed) {
            store.delete(LIVE_KEY + sink.shard() + "/" + batch.getBatchId());
            batch.getParts().forEach(p -> store.put(retiredKey(diff.getAppendedAtMs(), p.getKey()), new byte[0]));
        }
        for (Batch batch : diff.getAdded()) {
            store.put(LIVE_KEY + sink.shard() + "/" + batch.getBatchId(), Codecs.BATCH.encode(batch));
        }
        state.setUpper(diff.getUpper());
        state.setSeqno(diff.getSeqno());
        state.setSince(diff.getSince());
        state.setPendingGarbage(new ArrayList<>());
        sink.metrics().liveBatches(model.batches().size());
        if (state.getSeqno() - state.getRollupSeqno() >= upkeep.rollupAppends()) {
            rollUp(diff.getAppendedAtMs());
        }
        saveState();
        return value;
    }

    /** Writes the full state at the rollup key and tombstones every diff it covers. */
    private void rollUp(long now) {
        long retiredSince = now - upkeep.graceMs();
        model.forgetRetiredBefore(retiredSince);
        try (KeyValueIterator<String, byte[]> old = store.range(RETIRED_KEY + sink.shard() + "/",
                 retiredKey(retiredSince, ""))) {
            List<String> expired = new ArrayList<>();
            old.forEachRemaining(kv -> expired.add(kv.key));
            expired.forEach(store::delete);
        }
        byte[] rollup = Codecs.STATE_ROLLUP.encode(model.rollup(now, retiredSince));
        if (rollup.length > MAX_ROLLUP_BYTES) {
            sink.metrics().rollupSkipped();
            LOG.warn("shard {}: rollup at seqno {} would be {} bytes (over {}); diffs kept until the state shrinks",
                sink.shard(), state.getSeqno(), rollup.length, MAX_ROLLUP_BYTES);
            return;
        }
        forward(ConsensusKeys.rollup(sink.shard()), rollup, now);
        for (long seqno = state.getRollupSeqno() + 1; seqno <= state.getSeqno(); seqno++) {
            forward(ConsensusKeys.diff(sink.shard(), seqno), null, now);
        }
        state.setRollupSeqno(state.getSeqno());
        sink.metrics().rolledUp();
    }

    private void forward(String key, byte[] value, long timestamp) {
        context.forward(new Record<>(key.getBytes(StandardCharsets.UTF_8), value, timestamp), StoreNames.CONSENSUS_SINK);
    }

    private String retiredKey(long retiredAtMs, String blobKey) {
        return String.format("%s%s/%019d/%s", RETIRED_KEY, sink.shard(), retiredAtMs, blobKey);
    }

    private RetiredBlob retiredOf(String key) {
        String rest = key.substring((RETIRED_KEY + sink.shard() + "/").length());
        return new RetiredBlob(rest.substring(20), Long.parseLong(rest.substring(0, 19)));
    }

    private void saveState() {
        store.put(STATE_KEY + sink.shard(), Codecs.APPENDER_STATE.encode(state));
    }

    @Override
    public void close() {
        compactions.abandon();
    }
}
