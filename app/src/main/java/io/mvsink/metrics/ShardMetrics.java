package io.mvsink.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * The counters of one shard in one JVM. Writers are the stream threads and builder threads;
 * reads never change anything. One instance per shard, injected, never static. Monitoring systems
 * read these through {@link ShardMetricSet} (Kafka's metrics, JMX) and {@link #sealLatencyHistogram()}
 * (Prometheus); {@link #sealLatency()} is the in-process view the bench and the demo print.
 */
public final class ShardMetrics {
    private static final LongConsumer NO_LISTENER = latencyMs -> { };
    private final String shard;
    private final LongAdder updates = new LongAdder();
    private final LongAdder lateUpdates = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final Map<String, LongAdder> deadLetteredByReason = new ConcurrentHashMap<>();
    private final LongAdder contributions = new LongAdder();
    private final LongAdder recontributions = new LongAdder();
    private final LongAdder batchesBuilt = new LongAdder();
    private final LongAdder participants = new LongAdder();
    private final LongAdder barrierTimeouts = new LongAdder();
    private final LongAdder batchesAbandoned = new LongAdder();
    private final LongAdder orphanedBatches = new LongAdder();
    private final LongAdder batchesFailed = new LongAdder();
    private final LongAdder builderRefused = new LongAdder();
    private final LongAdder partsWritten = new LongAdder();
    private final LongAdder partBytes = new LongAdder();
    private final LongAdder gcRuns = new LongAdder();
    private final LongAdder gcDeletedBlobs = new LongAdder();
    private final LongAdder gcFailures = new LongAdder();
    private final LongAdder appends = new LongAdder();
    private final LongAdder batchesAppended = new LongAdder();
    private final LongAdder partsAppended = new LongAdder();
    private final LongAdder intervalsSealed = new LongAdder();
    private final LongAdder consensusBytes = new LongAdder();
    private final LongAdder mismatches = new LongAdder();
    private final LongAdder redundantBatches = new LongAdder();
    private final LatencyRecorder sealLatency = new LatencyRecorder(4096);
    private final LatencyHistogram sealLatencyHistogram = new LatencyHistogram(LatencyHistogram.SEAL_BOUNDS_SECONDS);
    private final LongAdder compactions = new LongAdder();
    private final LongAdder batchesCompacted = new LongAdder();
    private final LongAdder compactionConflicts = new LongAdder();
    private final LongAdder compactionFailures = new LongAdder();
    private final LongAdder rollups = new LongAdder();
    private final LongAdder rollupsSkipped = new LongAdder();
    private volatile long liveBatches;
    /** Approximate correction buffer entries by partition, as each local task last reported them. */
    private final Map<Integer, Long> bufferEntries = new ConcurrentHashMap<>();
    private final Map<Integer, Long> bufferBytes = new ConcurrentHashMap<>();

    private final SealProgress sealProgress = new SealProgress();
    private volatile LongConsumer sealLatencyListener = NO_LISTENER;

    public ShardMetrics(String shard) {
        this.shard = shard;
    }

    public String shard() {
        return shard;
    }

    public void update() { updates.increment(); }
    public void lateUpdate() { lateUpdates.increment(); }
    /** A record was dead-lettered for {@code reason} (counted in total and per reason). */
    public void deadLettered(String reason) {
        deadLettered.increment();
        deadLetteredByReason.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }
    public void contributed() { contributions.increment(); }
    public void recontributed() { recontributions.increment(); }
    /** A shared batch finished with {@code participants} contributions. */
    public void batchBuilt(int participants) {
        batchesBuilt.increment();
        this.participants.add(participants);
    }

    public void barrierTimedOut() { barrierTimeouts.increment(); }
    public void batchAbandoned() { batchesAbandoned.increment(); }
    public void orphanedBatch() { orphanedBatches.increment(); }
    public void batchFailed() { batchesFailed.increment(); }
    public void builderRefused() { builderRefused.increment(); }
    public void mismatch() { mismatches.increment(); }
    /** A mismatch whose batch held only ranges other batches sealed (counted in {@link #mismatches} too). */
    public void redundantBatch() { redundantBatches.increment(); }

    public void partWritten(long bytes) {
        partsWritten.increment();
        partBytes.add(bytes);
    }

    /** A blob GC run ended (completed or stopped early) having deleted {@code deletedBlobs} blobs. */
    public void gcRan(int deletedBlobs) {
        gcRuns.increment();
        gcDeletedBlobs.add(deletedBlobs);
    }

    public void gcFailed() { gcFailures.increment(); }

    /** One successful append of {@code batches} batches holding {@code parts} parts. */
    public void appended(long intervals, int batches, int parts, long diffBytes, long latencyMs) {
        appends.increment();
        intervalsSealed.add(intervals);
        batchesAppended.add(batches);
        partsAppended.add(parts);
        consensusBytes.add(diffBytes);
        sealLatency.record(latencyMs);
        sealLatencyHistogram.record(latencyMs);
        sealLatencyListener.accept(latencyMs);
    }

    /**
     * Hands every seal latency from now on to {@code listener} as well (the exposure's windowed
     * sensor, {@link ShardMetricSet}); one listener at a time, the last one set wins.
     */
    public synchronized void sealLatencyListener(LongConsumer listener) {
        sealLatencyListener = listener;
    }

    /** Stops handing seal latencies to {@code listener}, if it is still the one set. */
    public synchronized void removeSealLatencyListener(LongConsumer listener) {
        if (sealLatencyListener == listener) {
            sealLatencyListener = NO_LISTENER;
        }
    }

    /** The task of {@code partition} holds about {@code entries} buffered entries (a gauge). */
    public void bufferEntries(int partition, long entries) { bufferEntries.put(partition, entries); }
    /** The task of {@code partition} holds about {@code bytes} of unsealed updates (a gauge). */
    public void bufferBytes(int partition, long bytes) { bufferBytes.put(partition, bytes); }
    /** The task of {@code partition} left this JVM: its buffer no longer counts here. */
    public void bufferClosed(int partition) {
        bufferEntries.remove(partition);
        bufferBytes.remove(partition);
    }

    public long updates() { return updates.sum(); }
    public long lateUpdates() { return lateUpdates.sum(); }
    public long deadLetteredCount() { return deadLettered.sum(); }
    /** Records dead-lettered for {@code reason} (0 for a reason never seen). */
    public long deadLetteredCount(String reason) {
        LongAdder count = deadLetteredByReason.get(reason);
        return count == null ? 0 : count.sum();
    }
    public long contributions() { return contributions.sum(); }
    public long recontributions() { return recontributions.sum(); }
    public long batchesBuilt() { return batchesBuilt.sum(); }
    public long participants() { return participants.sum(); }
    public long barrierTimeouts() { return barrierTimeouts.sum(); }
    public long batchesAbandoned() { return batchesAbandoned.sum(); }
    public long orphanedBatches() { return orphanedBatches.sum(); }
    public long batchesFailed() { return batchesFailed.sum(); }
    public long builderRefusals() { return builderRefused.sum(); }
    public long partsWritten() { return partsWritten.sum(); }
    public long partBytes() { return partBytes.sum(); }
    public long appends() { return appends.sum(); }
    public long batchesAppended() { return batchesAppended.sum(); }
    public long partsAppended() { return partsAppended.sum(); }
    public long intervalsSealed() { return intervalsSealed.sum(); }
    public long consensusBytes() { return consensusBytes.sum(); }
    public long mismatches() { return mismatches.sum(); }
    public long redundantBatches() { return redundantBatches.sum(); }
    public long gcRuns() { return gcRuns.sum(); }
    public long gcDeletedBlobs() { return gcDeletedBlobs.sum(); }
    public long gcFailures() { return gcFailures.sum(); }
    public LatencyRecorder sealLatency() { return sealLatency; }
    /** Every seal latency since the app started, in buckets (what {@code /metrics} serves as a histogram). */
    public LatencyHistogram sealLatencyHistogram() { return sealLatencyHistogram; }
    /** Approximate correction buffer entries summed over this JVM's tasks of the shard. */
    public long correctionBufferEntries() {
        return bufferEntries.values().stream().mapToLong(Long::longValue).sum();
    }
    /** Approximate bytes of unsealed updates summed over this JVM's tasks of the shard. */
    public long correctionBufferBytes() {
        return bufferBytes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** A merge of {@code batches} batches was committed (a compaction append). */
    public void compacted(int batches) {
        compactions.increment();
        batchesCompacted.add(batches);
    }

    public void compactionConflict() { compactionConflicts.increment(); }
    public void compactionFailed() { compactionFailures.increment(); }
    public void rolledUp() { rollups.increment(); }
    public void rollupSkipped() { rollupsSkipped.increment(); }
    /** The shard's live batches as the appender in this JVM last committed them (a gauge). */
    public void liveBatches(long count) { liveBatches = count; }

    public long compactions() { return compactions.sum(); }
    public long batchesCompacted() { return batchesCompacted.sum(); }
    public long compactionConflicts() { return compactionConflicts.sum(); }
    public long compactionFailures() { return compactionFailures.sum(); }
    public long rollups() { return rollups.sum(); }
    public long rollupsSkipped() { return rollupsSkipped.sum(); }
    public long liveBatches() { return liveBatches; }
    /** Where the shard's seals stand as this JVM's tasks see them. */
    public SealProgress sealProgress() { return sealProgress; }
}
