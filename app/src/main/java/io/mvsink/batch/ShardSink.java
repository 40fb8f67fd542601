package io.mvsink.batch;

import io.mvsink.metrics.ShardMetrics;

/**
 * What the registry keeps per shard: where its parts go, whose they are and whose metrics count
 * them.
 *
 * @param owner the owner every part is written with ({@link io.mvsink.blob.BlobOwner#value()}): the blob GC
 *     deletes only its own shard's parts
 * @param inlineMaxBytes a batch whose encoded updates total at most this many bytes is stored
 *     inline in consensus, not as blobs (0: never)
 */
public record ShardSink(String shard, String keyPrefix, String owner, ShardMetrics metrics, long inlineMaxBytes) {
    /** A sink that writes every batch's parts as blobs. */
    public ShardSink(String shard, String keyPrefix, String owner, ShardMetrics metrics) {
        this(shard, keyPrefix, owner, metrics, 0);
    }
}
