package io.mvsink.topology;

/**
 * The corrections topic's partition count is not the shard's: fatal. A shard seals exact covers
 * of a fixed set of partitions, so a seal now could cover times an added partition holds; the
 * app stops (it is not a transient failure, so the stream thread is not replaced) and the message
 * says what to do.
 */
public final class PartitionCountChangedException extends TopicException {

    public PartitionCountChangedException(String shard, String topic, int sealedOver, int now) {
        super("shard " + shard + " is sealed over " + sealedOver + " partitions of corrections topic '" + topic
            + "', which now has " + now + ": the shard's partition count cannot change, so nothing more is "
            + "sealed. Sink the topic as a new shard (a new application.id and shard over a new consensus topic), "
            + "or restore a topic of " + sealedOver + " partitions");
    }
}
