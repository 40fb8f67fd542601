package io.mvsink.topology;

import io.mvsink.batch.BatchBuilder;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.SchemaRegistry;
import org.apache.kafka.common.utils.Time;

/**
 * What the processors of one shard share in one JVM, injected through their suppliers (never
 * static, so two apps in one JVM never share them by accident).
 */
public record SinkContext(String shard, String subject, long intervalMs, int partitionCount, long punctuateMs,
                          Time time, ShardMetrics metrics, BatchBuilder builder, SchemaRegistry registry) {
}
