package io.mvsink.topology;

import io.mvsink.protocol.RecordBound;
import io.mvsink.protocol.PartitionCountProbe;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.compact.BatchMerge;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.apache.kafka.common.utils.Time;

/**
 * What the processors of one shard share in one JVM, injected through their suppliers (never
 * static, so two apps in one JVM never share them by accident).
 *
 * @param settings what the app's options tell the processors (shard, subject, grid, periods, bounds)
 * @param partitionProbe tells the corrections topic's partition count before every seal
 * @param location where the shard's parts live ({@code <account>/<container>}); "" if not recorded
 */
public record SinkContext(SinkSettings settings, Time time, ShardMetrics metrics, BatchCoalescer batches,
                          SchemaRegistry registry, Upkeep upkeep, PartitionCountProbe partitionProbe, String location) {

    /** A context whose partition count never changes and whose parts' location is not recorded. */
    public SinkContext(SinkSettings settings, Time time, ShardMetrics metrics, BatchCoalescer batches,
                       SchemaRegistry registry, Upkeep upkeep) {
        this(settings, time, metrics, batches, registry, upkeep,
            PartitionCountProbe.fixed(settings.shard(), settings.partitionCount()), "");
    }

    /** A context with {@link Upkeep#DEFAULT} upkeep (no compaction). */
    public SinkContext(SinkSettings settings, Time time, ShardMetrics metrics, BatchCoalescer batches,
                       SchemaRegistry registry) {
        this(settings, time, metrics, batches, registry, Upkeep.DEFAULT);
    }

    public String shard() {
        return settings.shard();
    }

    public String subject() {
        return settings.subject();
    }

    public long intervalMs() {
        return settings.intervalMs();
    }

    public int partitionCount() {
        return settings.partitionCount();
    }

    public long punctuateMs() {
        return settings.punctuate().toMillis();
    }

    /** A contribution not sealed this long after hand-off is contributed again. */
    public Duration recontribute() {
        return settings.recontribute();
    }

    /** A larger row is bad input. */
    public int maxRowBytes() {
        return settings.maxRowBytes();
    }

    /** The largest record the app's producer sends ({@link SinkSettings#recordBytes()}). */
    public int recordBytes() {
        return settings.recordBytes();
    }

    /**
     * How the appender keeps the shard's state bounded.
     *
     * @param merge merges batches (null: no compaction)
     * @param executor where merges run (never a stream thread)
     * @param maxBatchBytes merges never take more than this many part bytes
     * @param sinceLagMs since follows upper minus this (on the grid); -1 keeps every time
     * @param rollupAppends a rollup every this many appends
     * @param graceMs this appender's blob GC grace, recorded as the shard's (a batch whose parts are older than half the recorded grace is never sealed)
     * @param inlineMergeBytes compaction leaves the newest inline batches alone until they hold this
     *     many bytes together ({@link io.mvsink.compact.CompactionPolicy#pick}); 0: no such hold
     * @param recordBound the largest consensus record the appender may write (diffs and rollups)
     */
    public record Upkeep(BatchMerge merge, Executor executor, long maxBatchBytes, long sinceLagMs, int rollupAppends,
                         long graceMs, long inlineMergeBytes, RecordBound recordBound) {
        /** No compaction, merges of up to 32 MiB, every time kept, a rollup every 100 appends, a 10 min grace, Kafka's default record limits. */
        public static final Upkeep DEFAULT = new Upkeep(null, Runnable::run, 32L << 20, -1, 100, 600_000L, 0,
            RecordBound.DEFAULT);

        /** Compaction by {@code merge} on {@code executor} (null: none). */
        public Upkeep withMerge(BatchMerge merge, Executor executor) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withMaxBatchBytes(long maxBatchBytes) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withSinceLagMs(long sinceLagMs) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withRollupAppends(int rollupAppends) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withGraceMs(long graceMs) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withInlineMergeBytes(long inlineMergeBytes) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public Upkeep withRecordBound(RecordBound recordBound) {
            return new Upkeep(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes,
                recordBound);
        }

        public boolean compacts() {
            return merge != null;
        }
    }
}
