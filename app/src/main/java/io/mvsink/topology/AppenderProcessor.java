package io.mvsink.topology;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
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
 * starts below the upper can never be part of a cover: it is rejected, counted as a mismatch,
 * and its blobs are recorded as garbage in the next diff.
 */
final class AppenderProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(AppenderProcessor.class);
    private static final String STATE_KEY = "state/";
    private static final String PENDING_KEY = "pending/";

    private final SinkContext sink;
    private final Grid grid;
    private final Map<String, Batch> pending = new LinkedHashMap<>();
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<String, byte[]> store;
    private AppenderState state;

    AppenderProcessor(SinkContext sink) {
        this.sink = sink;
        this.grid = new Grid(sink.intervalMs());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.store = context.getStateStore(StoreNames.APPENDER);
        byte[] stored = store.get(STATE_KEY + sink.shard());
        state = stored == null
            ? new AppenderState(sink.shard(), 0L, 0L, sink.partitionCount(), new ArrayList<>(), 0L, 0L, new ArrayList<>())
            : Codecs.APPENDER_STATE.decode(stored);
        if (state.getPartitionCount() != sink.partitionCount()) {
            throw new IllegalStateException("shard " + sink.shard() + " was sealed over " + state.getPartitionCount()
                + " partitions but its corrections topic now has " + sink.partitionCount()
                + "; changing a shard's partition count is not supported");
        }
        String prefix = PENDING_KEY + sink.shard() + "/";
        try (KeyValueIterator<String, byte[]> it = store.prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> pending.put(kv.key, Codecs.BATCH.decode(kv.value)));
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
            append(cover.get());
        } else {
            saveState();
        }
    }

    /** Why a batch can never be part of a cover from the current upper, or null. */
    private String invalid(Batch batch) {
        Set<Integer> seen = new HashSet<>();
        if (batch.getContributions().isEmpty()) {
            return "batch holds no contribution";
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

    private void reject(Batch batch, String why) {
        sink.metrics().mismatch();
        LOG.info("shard {}: rejected batch {} [{}, {}): {}", sink.shard(), batch.getBatchId(),
            batch.getLower(), batch.getUpper(), why);
        batch.getParts().forEach(p -> state.getPendingGarbage().add(p.getKey()));
        saveState();
    }

    private void append(SealCover.Cover cover) {
        long lower = state.getUpper();
        long seqno = state.getSeqno() + 1;
        Set<String> used = new HashSet<>();
        cover.batches().forEach(b -> used.add(b.getBatchId()));
        List<String> garbage = new ArrayList<>(state.getPendingGarbage());
        var it = pending.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            Batch batch = entry.getValue();
            boolean unusable = batch.getContributions().stream().anyMatch(c -> c.getLower() < cover.upper());
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
        StateDiff diff = StateDiff.newBuilder()
            .setShard(sink.shard()).setSeqno(seqno).setLower(lower).setUpper(cover.upper())
            .setPartitionCount(state.getPartitionCount()).setAdded(cover.batches())
            .setRemovedBatchIds(List.of()).setGarbageBlobs(garbage).setAppendedAtMs(now)
            .build();
        byte[] value = Codecs.STATE_DIFF.encode(diff);
        context.forward(new Record<>(ConsensusKeys.diff(sink.shard(), seqno).getBytes(StandardCharsets.UTF_8),
            value, now), StoreNames.CONSENSUS_SINK);
        state.setUpper(cover.upper());
        state.setSeqno(seqno);
        state.setPendingGarbage(new ArrayList<>());
        saveState();
        long closedAt = cover.batches().stream().mapToLong(Batch::getClosedAtMs).max().orElse(now);
        int parts = cover.batches().stream().mapToInt(b -> b.getParts().size()).sum();
        // the first append seals the empty prefix [0, first interval) too: count it as one
        long intervals = lower == 0 ? 1 : grid.intervals(lower, cover.upper());
        sink.metrics().appended(intervals, cover.batches().size(), parts,
            value.length, Math.max(0, now - closedAt));
        LOG.debug("shard {}: append {} sealed [{}, {}) with {} batches", sink.shard(), seqno, lower,
            cover.upper(), cover.batches().size());
    }

    private void saveState() {
        store.put(STATE_KEY + sink.shard(), Codecs.APPENDER_STATE.encode(state));
    }
}
