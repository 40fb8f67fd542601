package io.mvsink.topology;

import io.mvsink.batch.SharedBatchRegistry;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.SchemaRegistry;
import org.apache.kafka.common.utils.Time;

/**
 * What the processors of one shard share in one JVM, injected through their suppliers (never
 * static, so two apps in one JVM never share them by accident).
 *
 * @param recontributeMs a contribution not sealed this long after hand-off is contributed again
 * @param maxRowBytes a larger row is bad input
 */
public record SinkContext(String shard, String subject, long intervalMs, int partitionCount, long punctuateMs,
                          long recontributeMs, int maxRowBytes, Time time, ShardMetrics metrics, SharedBatchRegistry batches,
                          SchemaRegistry registry) {
}
