package io.mvsink.topology;

import io.mvsink.consensus.ShardPlacement;

/**
 * The corrections topic's partition count is not the shard's: fatal. A shard seals exact covers
 * of a fixed set of partitions, so a seal now could cover times an added partition holds; the
 * app stops (it is not a transient failure, so the stream thread is not replaced) and the message
 * says what to do.
 */
public final class PartitionCountChangedException extends TopicException {
    private static final long serialVersionUID = 1L;

    public PartitionCountChangedException(String shard, String topic, int sealedOver, int now) {
        super(ShardPlacement.partitionsChanged(shard, topic, sealedOver, now));
    }
}
