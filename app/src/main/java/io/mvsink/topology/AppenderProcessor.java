package io.mvsink.topology;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.metrics.ShardLogContext;
import io.mvsink.protocol.SealCover;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
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
 * "Too long ago" is the shard's grace record's ({@link ShardGrace}), not only this process's
 * {@code gc.grace.ms}: the appender records its grace with an append whenever it differs from the
 * shard's, and every blob GC waits at least the recorded one.
 *
 * <p>It also keeps the shard's state bounded: it commits the merges of {@link Compactions} as
 * compaction appends (upper unchanged, the merged batches replaced), advances since, and every
 * {@code rollupAppends} appends writes a rollup of the full state and tombstones the diffs it
 * covers. Every record it writes is first applied to the {@link AppenderLedger}'s model, which
 * checks it exactly as a reader will.
 */
final class AppenderProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(AppenderProcessor.class);

    private final SinkContext sink;
    private final LaunchLog launch = new LaunchLog();
    private final LaunchLog received = new LaunchLog();
    private final LaunchLog waited = new LaunchLog();
    private final SinkContext.Upkeep upkeep;
    private final Grid grid;
    private final Compactions compactions;
    private final PartitionWatch partitions;
    private ProcessorContext<byte[], byte[]> context;
    private AppenderLedger ledger;
    private AppenderState state;

    AppenderProcessor(SinkContext sink) {
        this.sink = sink;
        this.upkeep = sink.upkeep();
        this.grid = new Grid(sink.intervalMs());
        this.compactions = new Compactions(sink.shard(), upkeep, sink.metrics());
        this.partitions = new PartitionWatch(sink.shard(), sink.partitionProbe());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(sink.shard())) {
            this.context = context;
            this.ledger = new AppenderLedger(context.getStateStore(StoreNames.APPENDER), sink.shard(),
                sink.partitionCount(), sink.location(), context.getStateStore(StoreNames.CONSENSUS));
            this.state = ledger.state();
        }
        context.schedule(Duration.ofMillis(sink.punctuateMs()), PunctuationType.WALL_CLOCK_TIME, wallClock -> {
            try (ShardLogContext.Scope scope = ShardLogContext.enter(sink.shard())) {
                tick(wallClock);
            }
        });
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(sink.shard())) {
            processReport(record);
        }
    }

    private void processReport(Record<byte[], byte[]> record) {
        BatchReport report = Codecs.REPORT.decode(record.value());
        Batch batch = report.getBatch();
        if (!sink.shard().equals(batch.getShard())) {
            LOG.warn("appender of shard {} ignores a report for shard {}", sink.shard(), batch.getShard());
            return;
        }
        long now = sink.time().milliseconds();
        received.first("first report received: [{}, {})", batch.getLower(), batch.getUpper());
        long writtenSince = writtenSince(batch.getClosedAtMs(), report.getFirstWriteAtMs());
        String invalid = invalid(batch, writtenSince, now);
        if (invalid != null) {
            reject(batch, invalid);
            return;
        }
        ledger.addPending(batch, writtenSince);
        expirePending(now);
        sealIfCovered(now);
        compactions.maybeStart(ledger.model(), now);
    }

    /**
     * Seals the cover from the current upper, if there is one and the topic still has the shard's
     * partitions: one append per step of the cover (each step the batches that bring every partition
     * to one upper, e.g. one minted range), as many as the pending batches allow, on one probe answer
     * asked while a cover stood (no cover drops an answer still out: {@link PartitionWatch#noCover}).
     */
    private void sealIfCovered(long now) {
        Optional<SealCover.Cover> cover = SealCover.find(state.getUpper(), state.getPartitionCount(), ledger.pending());
        if (cover.isEmpty()) {
            partitions.noCover();
            ledger.save();
            return;
        }
        if (!partitions.maySeal(state.getPartitionCount())) {
            waited.first("first cover waits for the partition count");
            ledger.save();
            return;
        }
        while (cover.isPresent()) {
            seal(SealCover.firstStep(cover.get(), state.getUpper(), state.getPartitionCount()), now);
            cover = SealCover.find(state.getUpper(), state.getPartitionCount(), ledger.pending());
        }
    }

    /** Commits a finished merge and starts the next one (wall-clock punctuation). */
    private void tick(long wallClock) {
        long now = sink.time().milliseconds();
        expirePending(now);
        if (partitions.deferred()) {
            sealIfCovered(now);
        }
        compactions.poll(now).ifPresent(this::commitMerge);
        compactions.maybeStart(ledger.model(), now);
    }

    /** Why a batch can never be part of a cover from the current upper, or null. */
    private String invalid(Batch batch, long writtenSince, long now) {
        Set<Integer> seen = new HashSet<>();
        if (batch.getContributions().isEmpty()) {
            return "batch holds no contribution";
        }
        if (tooOld(writtenSince, now)) {
            return tooOldReason(batch, writtenSince, now);
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

    /**
     * A batch whose parts may have been written more than half the GC grace ago may lose them to the
     * GC: it is never sealed (the GC's safety argument rests on this bound; {@link #seal} checks it
     * again for every batch it seals). Its age runs from the earlier of its first part write and its
     * close: parts are written while a builder waits for more contributions, and a stalled builder can
     * close long after its first write.
     */
    private boolean tooOld(long writtenSince, long now) {
        return writtenSince > 0 && writtenSince < grace(now).oldestSealableMs(now);
    }

    /** The grace record in force at {@code now}: the shard's, or the change this appender's grace makes to it. */
    private ShardGrace grace(long now) {
        return ShardGrace.next(ledger.grace(), upkeep.graceMs(), now);
    }

    /** When a batch's oldest part may have been written: the earlier of its first write (0: none) and its close. */
    static long writtenSince(long closedAtMs, long firstWriteAtMs) {
        return firstWriteAtMs > 0 && (closedAtMs <= 0 || firstWriteAtMs < closedAtMs) ? firstWriteAtMs : closedAtMs;
    }

    private String tooOldReason(Batch batch, long writtenSince, long now) {
        ShardGrace grace = grace(now);
        return "parts written since " + writtenSince + " (closed at " + batch.getClosedAtMs() + "), before "
            + grace.oldestSealableMs(now) + " (half the shard's gc grace of " + grace.graceMs() + " ms ago, or its floor "
            + grace.floorMs() + " after a raise): its blobs may be collected";
    }

    /**
     * Drops the pending batches that became too old while they waited for the rest of a cover (a
     * partition lagging longer than the bound): they can never be sealed, their blobs are garbage,
     * and their contributors contribute again once the seal does not come.
     */
    private void expirePending(long now) {
        boolean expired = false;
        for (Iterator<Batch> it = ledger.pendingIterator(); it.hasNext(); ) {
            Batch batch = it.next();
            long since = ledger.writtenSince(batch);
            if (tooOld(since, now)) {
                it.remove();
                reject(batch, tooOldReason(batch, since, now));
                expired = true;
            }
        }
        if (expired) {
            ledger.save();
        }
    }

    private void reject(Batch batch, String why) {
        sink.metrics().mismatch();
        LOG.info("rejected batch {} [{}, {}): {}", batch.getBatchId(),
            batch.getLower(), batch.getUpper(), why);
        ledger.garbage(ShardState.blobKeys(batch));
    }

    /**
     * Appends one step of a cover, or, if its diff does not fit the record bound, rejects the inline
     * batches that keep it out ({@link AppendFit}; the next search finds a cover without them).
     */
    private void seal(SealCover.Cover cover, long now) {
        for (Batch batch : cover.batches()) {
            long since = ledger.writtenSince(batch);
            if (tooOld(since, now)) {
                // expirePending ran with the same clock: a cover holding such a batch is a defect
                throw new IllegalStateException("shard " + sink.shard() + ": refusing to seal batch "
                    + batch.getBatchId() + ": " + tooOldReason(batch, since, now));
            }
        }
        long lower = state.getUpper();
        Set<String> used = new HashSet<>();
        cover.batches().forEach(b -> used.add(b.getBatchId()));
        List<Batch> unusable = ledger.pending().stream().filter(b -> !used.contains(b.getBatchId())
            && b.getContributions().stream().anyMatch(c -> c.getLower() < cover.upper())).toList();
        List<String> garbage = new ArrayList<>(state.getPendingGarbage());
        unusable.forEach(b -> garbage.addAll(ShardState.blobKeys(b)));
        long since = upkeep.sinceLagMs() < 0 ? state.getSince()
            : Math.max(state.getSince(), grid.floor(Math.max(0, cover.upper() - Math.max(upkeep.sinceLagMs(), grid.width()))));
        AppendFit.Decision decision = AppendFit.fit(
            diff(lower, cover.upper(), cover.batches(), List.of(), garbage, since, now), upkeep.recordBound());
        if (decision instanceof AppendFit.Reject rejected) {
            rejectPending(rejected);
            return;
        }
        Set<String> dropped = new HashSet<>(used);
        unusable.forEach(b -> dropped.add(b.getBatchId()));
        for (Iterator<Batch> it = ledger.pendingIterator(); it.hasNext(); ) {
            if (dropped.contains(it.next().getBatchId())) {
                it.remove();
            }
        }
        unusable.forEach(b -> sink.metrics().mismatch());
        ledger.garbage(unusable.stream().flatMap(b -> ShardState.blobKeys(b).stream()).toList());
        byte[] value = commit((AppendFit.Send) decision);
        long closedAt = cover.batches().stream().mapToLong(Batch::getClosedAtMs).max().orElse(now);
        int parts = cover.batches().stream().mapToInt(b -> b.getParts().size()).sum();
        // the first append seals the empty prefix [0, first interval) too: count it as one
        long intervals = lower == 0 ? 1 : grid.intervals(lower, cover.upper());
        sink.metrics().appended(intervals, cover.batches().size(), parts,
            value.length, Math.max(0, now - closedAt));
        LOG.debug("append {} sealed [{}, {}) with {} batches", state.getSeqno(), lower,
            cover.upper(), cover.batches().size());
        launch.first("first append sealed [{}, {}) with {} batches", lower, cover.upper(), cover.batches().size());
    }

    /** Rejects the inline batches an append had no room for: their contributors contribute them again as blobs. */
    private void rejectPending(AppendFit.Reject rejected) {
        Set<String> ids = new HashSet<>();
        rejected.batches().forEach(b -> ids.add(b.getBatchId()));
        for (Iterator<Batch> it = ledger.pendingIterator(); it.hasNext(); ) {
            Batch batch = it.next();
            if (ids.contains(batch.getBatchId())) {
                it.remove();
                reject(batch, rejected.why());
            }
        }
        ledger.save();
    }

    /** Commits a merge unless its batches are no longer all live or it is too old: then its parts are garbage. */
    private void commitMerge(Compactions.Merged merged) {
        long now = sink.time().milliseconds();
        boolean live = merged.replaced().stream().allMatch(id -> ledger.model().batch(id) != null);
        // a merge takes its closedAtMs before its first write
        if (!live || tooOld(merged.batch().getClosedAtMs(), now)) {
            sink.metrics().compactionConflict();
            LOG.info("merged batch {} not committed ({})", merged.batch().getBatchId(),
                live ? "too old" : "its batches changed meanwhile");
            ledger.garbage(ShardState.blobKeys(merged.batch()));
            return;
        }
        AppendFit.Decision decision = AppendFit.fit(diff(state.getUpper(), state.getUpper(), List.of(merged.batch()),
            merged.replaced(), new ArrayList<>(state.getPendingGarbage()), state.getSince(), now), upkeep.recordBound());
        if (!(decision instanceof AppendFit.Send send)) {
            // a merge writes blob parts only: nothing of it can be left out
            throw new IllegalStateException("shard " + sink.shard() + ": merged batch " + merged.batch().getBatchId()
                + " was refused by the record bound as inline data");
        }
        commit(send);
        sink.metrics().compacted(merged.replaced().size());
    }

    private StateDiff diff(long lower, long upper, List<Batch> added, List<String> removed, List<String> garbage,
                           long since, long now) {
        return StateDiff.newBuilder()
            .setShard(sink.shard()).setSeqno(state.getSeqno() + 1).setLower(lower).setUpper(upper)
            .setPartitionCount(state.getPartitionCount()).setAdded(added)
            .setRemovedBatchIds(removed).setGarbageBlobs(garbage).setAppendedAtMs(now).setSince(since)
            .setLocation(state.getLocation()).build();
    }

    /**
     * Applies the diff to the ledger, writes it (with the grace record, when the grace it was
     * checked against changes the shard's), and writes a rollup when one is due.
     */
    private byte[] commit(AppendFit.Send append) {
        StateDiff diff = append.diff();
        byte[] value = append.value();
        recordGrace(diff.getAppendedAtMs());
        ledger.apply(diff);
        forward(ConsensusKeys.diff(sink.shard(), diff.getSeqno()), value, diff.getAppendedAtMs());
        // a seal counts once it commits: ask for the commit now rather than at the commit interval
        context.commit();
        sink.metrics().liveBatches(ledger.model().batches().size());
        if (ledger.rollupDue(upkeep.rollupAppends())) {
            rollUp(diff.getAppendedAtMs());
        }
        return value;
    }

    /**
     * Writes the grace in force at {@code now} when it differs from the shard's record, in this
     * append's transaction: only ever with an append, so that a reader meets a diff or the rollup
     * of the shard before it ({@link ConsensusKeys#grace}).
     */
    private void recordGrace(long now) {
        ShardGrace recorded = ledger.grace();
        ShardGrace next = grace(now);
        if (next.equals(recorded)) {
            return;
        }
        if (recorded == null) {
            LOG.info("recording the shard's gc grace: {} ms", next.graceMs());
        } else {
            LOG.warn("{} {} ms differs from the shard's recorded gc grace {} ms: recording {} ms ({}); every "
                + "instance of the shard should run with one grace", MvsinkConfig.GC_GRACE_MS, next.graceMs(),
                recorded.graceMs(), next.graceMs(), next.graceMs() < recorded.graceMs()
                    ? "lowered: batches older than half of it are no longer sealed"
                    : "raised: no batch whose parts were written before " + next.floorMs() + " is sealed");
        }
        ledger.recordGrace(next);
        forward(ConsensusKeys.grace(sink.shard()), Codecs.GRACE.encode(next.toRecord(sink.shard())), now);
    }

    /** Writes the full state at the rollup key and tombstones every diff it covers. */
    private void rollUp(long now) {
        // the grace recorded with this append is this appender's: retired blobs are kept that long
        byte[] rollup = Codecs.STATE_ROLLUP.encode(ledger.rollup(now, now - upkeep.graceMs()));
        if (!upkeep.recordBound().fits(rollup.length)) {
            sink.metrics().rollupSkipped();
            LOG.warn("rollup at seqno {} would be {} bytes (over the consensus record bound of {}); diffs kept until "
                + "the state shrinks", state.getSeqno(), rollup.length, upkeep.recordBound().bytes());
            return;
        }
        forward(ConsensusKeys.rollup(sink.shard()), rollup, now);
        for (long seqno = state.getRollupSeqno() + 1; seqno <= state.getSeqno(); seqno++) {
            forward(ConsensusKeys.diff(sink.shard(), seqno), null, now);
        }
        ledger.rolledUp();
        sink.metrics().rolledUp();
    }

    private void forward(String key, byte[] value, long timestamp) {
        context.forward(new Record<>(key.getBytes(StandardCharsets.UTF_8), value, timestamp), StoreNames.CONSENSUS_SINK);
    }

    @Override
    public void close() {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(sink.shard())) {
            compactions.abandon();
        }
    }
}
