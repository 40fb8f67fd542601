package io.mvsink.consensus;

/**
 * What a shard's state fixes for good, checked wherever an app or reader meets the shard: where
 * its parts live (the blob store's {@code <storage account>/<container>}; parts written elsewhere
 * would split the shard and every snapshot would miss some) and over how many partitions it seals
 * (a cover of fewer partitions than the topic has seals times the others hold). A state that has
 * not recorded a value (no append yet, or written before the value was recorded) accepts any.
 */
public final class ShardPlacement {
    private ShardPlacement() {
    }

    /**
     * Refuses {@code configured} if the shard recorded another location.
     *
     * @param option the option that chose {@code configured}, named in the message
     * @throws ShardPlacementException naming both locations
     */
    public static void requireLocation(String shard, String recorded, String configured, String option) {
        if (!recorded.isEmpty() && !recorded.equals(configured)) {
            throw new ShardPlacementException("shard " + shard + " keeps its parts at " + recorded
                + " but " + configured + " is configured here: a shard's parts cannot move (parts written "
                + "in two places leave every snapshot without some); set " + option + " (and the storage account) "
                + "back to where the shard lives, or sink into a new shard");
        }
    }

    /**
     * Refuses a corrections topic of {@code now} partitions if the shard seals over another count.
     *
     * @throws ShardPlacementException naming both counts
     */
    public static void requirePartitions(ShardState state, String topic, int now) {
        if (state.seqno() > 0 && state.partitionCount() != now) {
            throw new ShardPlacementException(partitionsChanged(state.shard(), topic, state.partitionCount(), now));
        }
    }

    /** What happened when a shard's corrections topic no longer has its partition count, and what to do. */
    public static String partitionsChanged(String shard, String topic, int sealedOver, int now) {
        return "shard " + shard + " is sealed over " + sealedOver + " partitions of corrections topic '" + topic
            + "', which now has " + now + ": the shard's partition count cannot change, so nothing more is sealed. "
            + "Sink the topic as a new shard (a new application.id and shard over a new consensus topic), or "
            + "restore a topic of " + sealedOver + " partitions";
    }

    /** Both checks against the state the consensus topic holds now. */
    public static void require(ShardState state, String topic, int partitions, String location, String option) {
        requirePartitions(state, topic, partitions);
        requireLocation(state.shard(), state.location(), location, option);
    }
}
