package io.mvsink.metrics;

import java.util.List;

/**
 * Every metric of a shard with its description, in the order README's table lists them (the seal
 * latency's windowed statistics are declared with their sensor in {@link ShardMetricSet}).
 */
final class ShardMetricDeclarations {
    private ShardMetricDeclarations() {
    }

    static void declare(ShardMetricSet.Declarer d, ShardMetrics m, BuilderGauges builders, List<String> reasons) {
        d.counter("blob-puts", "part blobs written (blob PUT requests that succeeded)", m::partsWritten);
        d.counter("blob-bytes", "bytes of part blobs written", m::partBytes);
        d.counter("appends", "seals: compare-and-append diffs that advanced the upper (merges count as "
            + "compactions)", m::appends);
        d.counter("consensus-diff-bytes", "bytes of consensus diffs written", m::consensusBytes);
        d.counter("parts-appended", "parts referenced by appends", m::partsAppended);
        d.counter("batches-appended", "batches referenced by appends", m::batchesAppended);
        d.mean("parts-per-append", "mean parts per append since start (parts-appended / appends)",
            m::partsAppended, m::appends);
        d.mean("batches-per-append", "mean batches per append since start (batches-appended / appends)",
            m::batchesAppended, m::appends);
        d.counter("append-mismatches", "compare-and-append mismatches (append not made: consensus moved)",
            m::mismatches);
        d.counter("redundant-batches", "of the append mismatches, batches that held only ranges other batches sealed "
            + "(copies made by contributing again: their blobs are garbage, nothing is contributed again)",
            m::redundantBatches);
        d.counter("intervals-sealed", "grid intervals sealed", m::intervalsSealed);
        d.counter("batches-built", "shared batches built (blob parts written, ready to append)", m::batchesBuilt);
        d.counter("shared-batch-participants", "contributions that took part in built batches", m::participants);
        d.mean("participants-per-batch", "mean participants per built batch since start "
            + "(shared-batch-participants / batches-built)", m::participants, m::batchesBuilt);
        d.counter("orphaned-batches", "batches retired while a participant still waited; must stay 0",
            m::orphanedBatches);
        d.counter("abandoned-batches", "batches dropped because every participant abandoned them",
            m::batchesAbandoned);
        d.counter("failed-batches", "batches whose build failed (their ranges are contributed again)",
            m::batchesFailed);
        d.counter("recontributions", "times a task contributed its unsealed range again", m::recontributions);
        d.counter("barrier-timeouts", "barrier batches closed by barrier.timeout.ms before every task joined",
            m::barrierTimeouts);
        d.counter("late-updates", "updates below their partition's frontier, advanced to it", m::lateUpdates);
        d.counter("dead-lettered-records", "input records sent to the dead-letter topic", m::deadLetteredCount);
        for (String reason : reasons) {
            d.counter(reasonCounter(reason), "input records dead-lettered with reason " + reason,
                () -> m.deadLetteredCount(reason));
        }
        d.counter("updates", "updates added to the correction buffer", m::updates);
        d.counter("contributions", "closed ranges handed to the batch coalescer", m::contributions);
        d.counter("builder-refusals", "contributions refused because the builder queue was full",
            m::builderRefusals);
        d.counter("gc-runs", "blob garbage collection runs of this app (completed or stopped early)", m::gcRuns);
        d.counter("gc-deleted-blobs", "unreferenced blobs deleted by this app's blob garbage collection",
            m::gcDeletedBlobs);
        d.counter("gc-failures", "blob garbage collection runs that failed (retried at the next interval)",
            m::gcFailures);
        d.gauge("correction-buffer-entries", "approximate correction buffer entries, summed over this JVM's "
            + "tasks of the shard (as of each task's last punctuation)", m::correctionBufferEntries);
        d.gauge("correction-buffer-bytes", "approximate bytes of the updates buffered and not yet sealed (each "
            + "update's row + 10, retractions not subtracted), summed over this JVM's tasks of the shard (as of each "
            + "task's last punctuation)", m::correctionBufferBytes);
        d.gauge("builder-queued-bytes", "this shard's contribution bytes waiting for a builder thread",
            builders.shardQueuedBytes());
        d.gauge("builder-live-batches", "this shard's batches open, building or awaiting their owner",
            builders.shardLiveBatches());
        d.gauge("jvm-builder-queued-bytes", "contribution bytes waiting for a builder thread, of every shard of "
            + "this JVM (the JVM-wide batch coalescer's bound applies to this)", builders.jvmQueuedBytes());
        d.gauge("jvm-builder-live-batches", "batches open, building or awaiting their owner, of every shard of "
            + "this JVM", builders.jvmLiveBatches());
        d.counter("compactions", "merges committed (compaction appends: the upper stays, batches are replaced)",
            m::compactions);
        d.counter("batches-compacted", "batches replaced by merges", m::batchesCompacted);
        d.counter("compaction-conflicts", "finished merges not committed (their batches changed meanwhile, "
            + "or they finished too late); their parts are garbage", m::compactionConflicts);
        d.counter("compaction-failures", "merges that failed (retried later)", m::compactionFailures);
        d.counter("rollups", "rollup records written (each tombstones the diffs it covers)", m::rollups);
        d.counter("rollups-skipped", "rollups not written because they would exceed the record size limit",
            m::rollupsSkipped);
        d.gauge("live-batches", "the shard's live batches after the last append of its appender in this JVM "
            + "(0 where the appender does not run)", m::liveBatches);
        d.gauge("sealed-upper", "the shard's sealed upper as this JVM's tasks last saw it (-1 before they saw one)",
            () -> m.sealProgress().sealedUpper());
        d.clockGauge("seal-lag-ms", "the clock minus the sealed upper, ms, for times that are wall-clock times "
            + "(-1 before a sealed upper is seen)", now -> {
                long sealed = m.sealProgress().sealedUpper();
                return sealed < 0 ? -1 : now - sealed;
            });
        d.gauge("frontier-lag-ms", "the smallest closed frontier of this JVM's tasks minus the sealed upper, "
            + "ms: closed input waiting to be sealed (-1 while unknown)", () -> {
                long sealed = m.sealProgress().sealedUpper();
                var closed = m.sealProgress().minClosed();
                return sealed < 0 || closed.isEmpty() ? -1 : Math.max(0, closed.getAsLong() - sealed);
            });
    }

    /** The counter of a dead-letter reason without its suffix: {@code bad-magic} is {@code dead-lettered-bad-magic}. */
    static String reasonCounter(String reason) {
        return "dead-lettered-" + reason;
    }
}
