package io.mvsink.batch;

import io.mvsink.metrics.ShardMetrics;

/** What the registry keeps per shard: where its parts go and whose metrics count them. */
public record ShardSink(String shard, String keyPrefix, ShardMetrics metrics) {
}
