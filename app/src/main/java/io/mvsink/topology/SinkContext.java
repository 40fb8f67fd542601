package io.mvsink.topology;

import io.mvsink.protocol.RecordBound;
import io.mvsink.protocol.PartitionCountProbe;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.compact.BatchMerge;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.SchemaRegistry;
import java.util.concurrent.Executor;
import org.apache.kafka.common.utils.Time;

/**
 * What the processors of one shard share in one JVM, injected through their suppliers (never
 * static, so two apps in one JVM never share them by accident).
 *
 * @param recontributeMs a contribution not sealed this long after hand-off is contributed again
 * @param maxRowBytes a larger row is bad input
 * @param partitionProbe tells the corrections topic's partition count before every seal
 * @param location where the shard's parts live ({@code <account>/<container>}); "" if not recorded
 */
public record SinkContext(String shard, String subject, long intervalMs, int partitionCount, long punctuateMs,
                          long recontributeMs, int maxRowBytes, Time time, ShardMetrics metrics, BatchCoalescer batches,
                          SchemaRegistry registry, Upkeep upkeep, PartitionCountProbe partitionProbe, String location) {

    /** A context whose partition count never changes and whose parts' location is not recorded. */
    public SinkContext(String shard, String subject, long intervalMs, int partitionCount, long punctuateMs,
                       long recontributeMs, int maxRowBytes, Time time, ShardMetrics metrics, BatchCoalescer batches,
                       SchemaRegistry registry, Upkeep upkeep) {
        this(shard, subject, intervalMs, partitionCount, punctuateMs, recontributeMs, maxRowBytes, time, metrics,
            batches, registry, upkeep, PartitionCountProbe.fixed(shard, partitionCount), "");
    }

    /** A context with {@link Upkeep#DEFAULT} upkeep (no compaction). */
    public SinkContext(String shard, String subject, long intervalMs, int partitionCount, long punctuateMs,
                       long recontributeMs, int maxRowBytes, Time time, ShardMetrics metrics, BatchCoalescer batches,
                       SchemaRegistry registry) {
        this(shard, subject, intervalMs, partitionCount, punctuateMs, recontributeMs, maxRowBytes, time, metrics,
            batches, registry, Upkeep.DEFAULT);
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
        public static final Upkeep DEFAULT = new Upkeep(null, Runnable::run, 32L << 20, -1, 100, 600_000L);

        /** Upkeep for a consensus topic and producer with Kafka's default record limits ({@link RecordBound#DEFAULT}). */
        public Upkeep(BatchMerge merge, Executor executor, long maxBatchBytes, long sinceLagMs, int rollupAppends,
                      long graceMs, long inlineMergeBytes) {
            this(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, inlineMergeBytes, RecordBound.DEFAULT);
        }

        /** Upkeep whose compaction merges inline batches as soon as its policy picks them. */
        public Upkeep(BatchMerge merge, Executor executor, long maxBatchBytes, long sinceLagMs, int rollupAppends,
                      long graceMs) {
            this(merge, executor, maxBatchBytes, sinceLagMs, rollupAppends, graceMs, 0);
        }

        public boolean compacts() {
            return merge != null;
        }
    }
}
