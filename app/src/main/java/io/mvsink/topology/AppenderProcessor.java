package io.mvsink.topology;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.protocol.AppendFit;
import io.mvsink.protocol.Appender;
import io.mvsink.protocol.SealCover;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard's single writer: one Kafka Streams task (the reports topic's partition) under
 * {@code exactly_once_v2}, so its state, its input offsets and the consensus records it writes
 * commit atomically and a zombie is fenced. An adapter over {@link Appender}, which decides: this
 * processor decodes each report, asks the appender what to do with it (and, at each punctuation,
 * with the pending batches), does it (keeps or drops pending batches in the {@link AppenderLedger},
 * counts mismatches, forwards each append's state-diff record, throws when the partition count
 * changed) and persists it. A rejected batch's blobs are recorded as garbage. The grace a batch's
 * age is checked against is the shard's grace record's ({@link ShardGrace}), not only this
 * process's {@code gc.grace.ms}: the processor records its grace with an append whenever it differs
 * from the shard's, and every blob GC waits at least the recorded one.
 *
 * <p>It also keeps the shard's state bounded: it commits the merges of {@link Compactions} as
 * compaction appends (upper unchanged, the merged batches replaced; {@link Appender#merge}),
 * advances since, and every {@code rollupAppends} appends writes a rollup of the full state and
 * tombstones the diffs it covers. Every record it writes is first applied to the
 * {@link AppenderLedger}'s model, which checks it exactly as a reader will.
 */
final class AppenderProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(AppenderProcessor.class);

    private final SinkContext sink;
    private final LaunchLog launch = new LaunchLog();
    private final LaunchLog received = new LaunchLog();
    private final LaunchLog waited = new LaunchLog();
    private final SinkContext.Upkeep upkeep;
    private final Compactions compactions;
    private ProcessorContext<byte[], byte[]> context;
    private AppenderLedger ledger;
    private AppenderState state;
    private Appender appender;

    AppenderProcessor(SinkContext sink) {
        this.sink = sink;
        this.upkeep = sink.upkeep();
        this.compactions = new Compactions(sink.shard(), upkeep, sink.metrics());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(sink.shard())) {
            this.context = context;
            this.ledger = new AppenderLedger(context.getStateStore(StoreNames.APPENDER), sink.shard(),
                sink.partitionCount(), sink.location(), context.getStateStore(StoreNames.CONSENSUS));
            this.state = ledger.state();
            this.appender = new Appender(sink.shard(), ledger, new Appender.Settings(upkeep.graceMs(),
                upkeep.sinceLagMs(), sink.intervalMs(), upkeep.recordBound()), sink.partitionProbe());
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
        Appender.Verdict verdict = appender.report(batch, report.getFirstWriteAtMs(), now);
        if (verdict instanceof Appender.Reject rejected) {
            reject(rejected);
            return;
        }
        ledger.addPending(batch, ((Appender.Accept) verdict).writtenSince());
        expirePending(now);
        sealIfCovered(now);
        compactions.maybeStart(ledger.model(), now);
    }

    /** Does what {@link Appender#seal} and {@link Appender#next} decide, until no cover stands. */
    private void sealIfCovered(long now) {
        Appender.Step step = appender.seal(now);
        if (step instanceof Appender.NoCover) {
            ledger.save();
            return;
        }
        if (step instanceof Appender.PartitionsChanged changed) {
            throw new PartitionCountChangedException(sink.shard(), changed.topic(), changed.sealedOver(), changed.now());
        }
        if (step instanceof Appender.Wait) {
            waited.first("first cover waits for the partition count");
            ledger.save();
            return;
        }
        for (Optional<Appender.Step> next = Optional.of(step); next.isPresent(); next = appender.next(now)) {
            if (next.get() instanceof Appender.RejectInline rejected) {
                rejectPending(rejected);
            } else {
                append((Appender.Append) next.get(), now);
            }
        }
    }

    /** Commits a finished merge and starts the next one (wall-clock punctuation). */
    private void tick(long wallClock) {
        long now = sink.time().milliseconds();
        expirePending(now);
        if (appender.deferred()) {
            sealIfCovered(now);
        }
        compactions.poll(now).ifPresent(this::commitMerge);
        compactions.maybeStart(ledger.model(), now);
    }

    /** Drops the pending batches {@link Appender#expired} names. */
    private void expirePending(long now) {
        List<Appender.Reject> expired = appender.expired(now);
        if (expired.isEmpty()) {
            return;
        }
        ledger.removePending(expired.stream().map(r -> r.batch().getBatchId()).collect(Collectors.toSet()));
        expired.forEach(this::reject);
        ledger.save();
    }

    private void reject(Appender.Reject rejected) {
        Batch batch = rejected.batch();
        countMismatch(batch, state.getUpper());
        LOG.info("rejected batch {} [{}, {}): {}", batch.getBatchId(),
            batch.getLower(), batch.getUpper(), rejected.why());
        ledger.garbage(ShardState.blobKeys(batch));
    }

    /** Counts a rejected or passed-over batch as a mismatch, and as redundant if {@code upper} seals all of it; returns which. */
    private boolean countMismatch(Batch batch, long upper) {
        sink.metrics().mismatch();
        boolean redundant = Appender.redundant(batch, upper);
        if (redundant) {
            sink.metrics().redundantBatch();
        }
        return redundant;
    }

    /** Appends one step of a cover: its batches and those it passes over leave the pending ones. */
    private void append(Appender.Append append, long now) {
        SealCover.Cover cover = append.cover();
        Set<String> dropped = new HashSet<>();
        cover.batches().forEach(b -> dropped.add(b.getBatchId()));
        append.unusable().forEach(b -> dropped.add(b.getBatchId()));
        ledger.removePending(dropped);
        for (Batch b : append.unusable()) {
            boolean redundant = countMismatch(b, cover.upper());
            LOG.info("passed over batch {} [{}, {}): {}", b.getBatchId(), b.getLower(), b.getUpper(), redundant
                ? "a copy whose ranges the append of [" + append.lower() + ", " + cover.upper() + ") seals with other batches"
                : "it starts below the new upper " + cover.upper() + " and reaches above it");
        }
        ledger.garbage(append.unusable().stream().flatMap(b -> ShardState.blobKeys(b).stream()).toList());
        byte[] value = commit(append.send());
        sink.metrics().appended(append.intervals(), cover.batches().size(), append.parts(),
            value.length, Math.max(0, now - append.closedAtMs()));
        LOG.debug("append {} sealed [{}, {}) with {} batches", state.getSeqno(), append.lower(),
            cover.upper(), cover.batches().size());
        launch.first("first append sealed [{}, {}) with {} batches", append.lower(), cover.upper(),
            cover.batches().size());
    }

    /** Rejects the inline batches an append had no room for: their contributors contribute them again as blobs. */
    private void rejectPending(Appender.RejectInline rejected) {
        Set<String> ids = new HashSet<>();
        rejected.batches().forEach(b -> ids.add(b.getBatchId()));
        List<Batch> removed = ledger.removePending(ids);
        removed.forEach(b -> reject(new Appender.Reject(b, rejected.why())));
        ledger.save();
    }

    /** Commits a merge unless {@link Appender#merge} finds a conflict: then its parts are garbage. */
    private void commitMerge(Compactions.Merged merged) {
        long now = sink.time().milliseconds();
        Appender.Merge decision = appender.merge(merged.batch(), merged.replaced(), now);
        if (decision instanceof Appender.Conflict conflict) {
            sink.metrics().compactionConflict();
            LOG.info("merged batch {} not committed ({})", merged.batch().getBatchId(), conflict.why());
            ledger.garbage(ShardState.blobKeys(merged.batch()));
            return;
        }
        commit(((Appender.Compact) decision).send());
        sink.metrics().compacted(merged.replaced().size());
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
        ShardGrace next = appender.grace(now);
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
