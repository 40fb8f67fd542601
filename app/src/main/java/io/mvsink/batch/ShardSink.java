package io.mvsink.batch;

import io.mvsink.metrics.ShardMetrics;

/**
 * What the registry keeps per shard: where its parts go, whose they are and whose metrics count
 * them.
 *
 * @param owner the owner every part is written with ({@code MvsinkConfig.blobOwner()}): the blob GC
 *     deletes only its own shard's parts
 */
public record ShardSink(String shard, String keyPrefix, String owner, ShardMetrics metrics) {
}
