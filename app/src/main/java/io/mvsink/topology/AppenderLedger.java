package io.mvsink.topology;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.RetiredBlob;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.codec.Codecs;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardPlacement;
import io.mvsink.consensus.ShardState;
import io.mvsink.protocol.Appender;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the appender keeps in its (changelogged) store, and the {@link ShardState} it implies:
 * {@code state/<shard>} (upper, seqno, since, garbage not yet recorded, the latest rollup's seqno),
 * {@code pending/<shard>/<batch>} (reported, not sealed), {@code live/<shard>/<batch>} (sealed
 * and not merged away), {@code retired/<shard>/<at>/<blob>} (blobs merges took out, kept for
 * the GC's grace) and {@code grace/<shard>} (the grace record last written, {@link ShardGrace}; a key
 * earlier versions neither read nor remove). Everything it writes commits in the appender's transaction with the consensus
 * records that say the same.
 */
final class AppenderLedger implements Appender.Ledger {
    private static final Logger LOG = LoggerFactory.getLogger(AppenderLedger.class);
    private static final String STATE_KEY = "state/";
    private static final String PENDING_KEY = "pending/";
    private static final String PENDING_SINCE_KEY = "pending-since/";
    private static final String LIVE_KEY = "live/";
    private static final String RETIRED_KEY = "retired/";
    private static final String GRACE_KEY = "grace/";

    private final KeyValueStore<String, byte[]> store;
    private final String shard;
    private final Map<String, Batch> pending = new LinkedHashMap<>();
    /** Per pending batch id: when its oldest part may have been written (absent: a store of an earlier version). */
    private final Map<String, Long> writtenSince = new HashMap<>();
    private final AppenderState state;
    private final ShardState model;
    private ShardGrace grace;

    /**
     * Loads the shard's records; {@code mirror} supplies the live batches a store of an earlier version lacks.
     * A shard that has not recorded where its parts live adopts {@code location} ("": not recorded).
     *
     * @throws ShardPlacementException if the shard's parts live elsewhere than {@code location}
     */
    AppenderLedger(KeyValueStore<String, byte[]> store, String shard, int partitionCount, String location,
                   ReadOnlyKeyValueStore<String, byte[]> mirror) {
        this.store = store;
        this.shard = shard;
        byte[] stored = store.get(STATE_KEY + shard);
        state = stored == null
            ? new AppenderState(shard, 0L, 0L, partitionCount, new ArrayList<>(), 0L, 0L, location)
            : Codecs.APPENDER_STATE.decode(stored);
        if (state.getPartitionCount() != partitionCount) {
            throw new IllegalStateException("shard " + shard + " was sealed over " + state.getPartitionCount()
                + " partitions but its corrections topic now has " + partitionCount
                + "; changing a shard's partition count is not supported");
        }
        ShardPlacement.requireLocation(shard, state.getLocation(), location, MvsinkConfig.BLOB_CONTAINER);
        if (state.getLocation().isEmpty()) {
            state.setLocation(location);
        }
        scan(PENDING_KEY, (key, value) -> pending.put(key, Codecs.BATCH.decode(value)));
        scan(PENDING_SINCE_KEY, (key, value) -> writtenSince.put(key.substring(key.lastIndexOf('/') + 1),
            ByteBuffer.wrap(value).getLong()));
        List<Batch> live = new ArrayList<>();
        scan(LIVE_KEY, (key, value) -> live.add(Codecs.BATCH.decode(value)));
        if (state.getSeqno() > 0 && live.isEmpty()) {
            live.addAll(liveFromMirror(mirror));
        }
        List<RetiredBlob> retired = new ArrayList<>();
        scan(RETIRED_KEY, (key, value) -> retired.add(retiredOf(key)));
        model = ShardState.of(StateRollup.newBuilder().setShard(shard).setSeqno(state.getSeqno())
            .setUpper(state.getUpper()).setSince(state.getSince()).setPartitionCount(state.getPartitionCount())
            .setBatches(live).setRetired(retired).setRolledUpAtMs(0L).setLocation(state.getLocation()).build());
        grace = graceOf(store.get(GRACE_KEY + shard), mirror);
        model.recordGrace(grace);
    }

    /**
     * The grace record last written: from this store, else from the consensus mirror (a store an
     * earlier version kept while another instance recorded it), else null (none yet).
     */
    private ShardGrace graceOf(byte[] stored, ReadOnlyKeyValueStore<String, byte[]> mirror) {
        byte[] bytes = stored != null ? stored : mirror.get(ConsensusKeys.grace(shard));
        return bytes == null ? null : ShardGrace.of(Codecs.GRACE.decode(bytes));
    }

    /** The shard's grace record as last written, or null if it has none yet. */
    @Override
    public ShardGrace grace() {
        return grace;
    }

    /** Keeps the grace record written with the current append. */
    void recordGrace(ShardGrace written) {
        grace = written;
        model.recordGrace(written);
        store.put(GRACE_KEY + shard, Codecs.GRACE.encode(written.toRecord(shard)));
    }

    /**
     * The live batches of a shard whose store has none yet (written by a version that did not keep
     * them: every append adds a batch, so a shard with appends has some), from the global consensus
     * mirror, which Kafka Streams restores to the topic's end before any task starts.
     */
    private List<Batch> liveFromMirror(ReadOnlyKeyValueStore<String, byte[]> mirror) {
        ShardState mirrored = ConsensusMirror.state(mirror, shard);
        if (mirrored.seqno() != state.getSeqno()) {
            throw new IllegalStateException("shard " + shard + ": the appender store (written by an earlier "
                + "version) is at seqno " + state.getSeqno() + " but the consensus mirror at " + mirrored.seqno()
                + "; restart the app so that the mirror catches up");
        }
        List<Batch> live = new ArrayList<>(mirrored.batches());
        live.forEach(b -> store.put(LIVE_KEY + shard + "/" + b.getBatchId(), Codecs.BATCH.encode(b)));
        LOG.info("took {} live batches from the consensus mirror at seqno {}", live.size(),
            state.getSeqno());
        return live;
    }

    private void scan(String kind, BiConsumer<String, byte[]> each) {
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(kind + shard + "/", new StringSerializer())) {
            it.forEachRemaining(kv -> each.accept(kv.key, kv.value));
        }
    }

    @Override
    public AppenderState state() {
        return state;
    }

    /** The shard as the consensus topic will describe it after this appender's committed records. */
    @Override
    public ShardState model() {
        return model;
    }

    /** Keeps a reported batch; {@code writtenSinceMs}: when its oldest part may have been written. */
    void addPending(Batch batch, long writtenSinceMs) {
        String key = PENDING_KEY + shard + "/" + batch.getBatchId();
        pending.put(key, batch);
        store.put(key, Codecs.BATCH.encode(batch));
        writtenSince.put(batch.getBatchId(), writtenSinceMs);
        store.put(PENDING_SINCE_KEY + shard + "/" + batch.getBatchId(),
            ByteBuffer.allocate(Long.BYTES).putLong(writtenSinceMs).array());
    }

    /** When the pending {@code batch}'s oldest part may have been written: its close for a store of an earlier version. */
    @Override
    public long writtenSince(Batch batch) {
        return writtenSince.getOrDefault(batch.getBatchId(), batch.getClosedAtMs());
    }

    @Override
    public Collection<Batch> pending() {
        return Collections.unmodifiableCollection(pending.values());
    }

    /** Removes the pending batches of these ids (from the store too) and returns them, in pending order. */
    List<Batch> removePending(Set<String> batchIds) {
        List<Batch> removed = new ArrayList<>();
        for (Iterator<Map.Entry<String, Batch>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Batch> entry = it.next();
            String batchId = entry.getValue().getBatchId();
            if (batchIds.contains(batchId)) {
                it.remove();
                store.delete(entry.getKey());
                writtenSince.remove(batchId);
                store.delete(PENDING_SINCE_KEY + shard + "/" + batchId);
                removed.add(entry.getValue());
            }
        }
        return removed;
    }

    /** Records blobs no state references, for the next diff's garbage list. */
    void garbage(List<String> keys) {
        state.getPendingGarbage().addAll(keys);
        save();
    }

    /**
     * Applies {@code diff} to the model (which checks it as a reader would) and records what it
     * changes: the live batches, the blobs it retires, upper, seqno and since. The garbage it
     * carries is no longer pending; garbage it had no room for stays pending for a later append.
     */
    void apply(StateDiff diff) {
        List<Batch> removed = diff.getRemovedBatchIds().stream().map(model::batch).toList();
        model.apply(diff);
        for (Batch batch : removed) {
            store.delete(LIVE_KEY + shard + "/" + batch.getBatchId());
            ShardState.blobKeys(batch).forEach(key -> store.put(retiredKey(diff.getAppendedAtMs(), key), new byte[0]));
        }
        for (Batch batch : diff.getAdded()) {
            store.put(LIVE_KEY + shard + "/" + batch.getBatchId(), Codecs.BATCH.encode(batch));
        }
        state.setUpper(diff.getUpper());
        state.setSeqno(diff.getSeqno());
        state.setSince(diff.getSince());
        List<String> left = new ArrayList<>(state.getPendingGarbage());
        left.removeAll(new HashSet<>(diff.getGarbageBlobs()));
        state.setPendingGarbage(left);
        save();
    }

    /** True once {@code every} appends have come since the latest rollup. */
    boolean rollupDue(int every) {
        return state.getSeqno() - state.getRollupSeqno() >= every;
    }

    /** The rollup of the current state, forgetting blobs retired before {@code retiredSince} first. */
    StateRollup rollup(long now, long retiredSince) {
        model.forgetRetiredBefore(retiredSince);
        try (KeyValueIterator<String, byte[]> old = store.range(RETIRED_KEY + shard + "/", retiredKey(retiredSince, ""))) {
            List<String> expired = new ArrayList<>();
            old.forEachRemaining(kv -> expired.add(kv.key));
            expired.forEach(store::delete);
        }
        return model.rollup(now, retiredSince);
    }

    /** The rollup was written: the diffs up to the current seqno are tombstoned with it. */
    void rolledUp() {
        state.setRollupSeqno(state.getSeqno());
        save();
    }

    void save() {
        store.put(STATE_KEY + shard, Codecs.APPENDER_STATE.encode(state));
    }

    private String retiredKey(long retiredAtMs, String blobKey) {
        return String.format(Locale.ROOT, "%s%s/%019d/%s", RETIRED_KEY, shard, retiredAtMs, blobKey);
    }

    private RetiredBlob retiredOf(String key) {
        String rest = key.substring((RETIRED_KEY + shard + "/").length());
        return new RetiredBlob(rest.substring(20), Long.parseLong(rest.substring(0, 19)));
    }
}
