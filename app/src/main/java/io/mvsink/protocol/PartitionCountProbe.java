package io.mvsink.protocol;

import java.util.concurrent.CompletableFuture;

/**
 * Tells the corrections topic's partition count now, from fresh metadata (not a client's cache),
 * so that the appender can refuse to seal once partitions were added (see {@link PartitionWatch}).
 */
public interface PartitionCountProbe {

    /** The topic probed. */
    String topic();

    /**
     * The topic's current partition count.
     *
     * @throws RuntimeException if it cannot be told within the probe's bound: the caller treats
     *     that as "cannot verify", never as unchanged
     */
    int partitions();

    /**
     * The same, asked without waiting: completes with the count, or exceptionally if it cannot be
     * told within the probe's bound. By default asks {@link #partitions()} at once (fakes, tests).
     */
    default CompletableFuture<Integer> partitionsAsync() {
        try {
            return CompletableFuture.completedFuture(partitions());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A probe that always answers {@code count} (a topology that is only described, or a test). */
    static PartitionCountProbe fixed(String topic, int count) {
        return new PartitionCountProbe() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partitions() {
                return count;
            }
        };
    }
}
