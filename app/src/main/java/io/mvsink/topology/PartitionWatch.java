package io.mvsink.topology;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The appender's check before every seal that the corrections topic still has the shard's
 * partition count: an exact cover of the shard's partitions says nothing about a partition added
 * since, and sealing its times would lose its updates for every reader.
 *
 * <p>Three answers: the count is the shard's (seal); it changed ({@link
 * PartitionCountChangedException}: the app stops, nothing is sealed or trimmed past the added
 * partitions); or the probe failed or timed out: cannot verify, so no seal now, and the cover is
 * tried again at the next report or punctuation ({@link #deferred()}). Never a silent pass.
 *
 * <p>Cost: one metadata round trip per seal (about one per second at a steady rate), bounded by
 * the probe's timeout on the appender's stream thread.
 */
final class PartitionWatch {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionWatch.class);

    private final String shard;
    private final PartitionCountProbe probe;
    private boolean deferred;

    PartitionWatch(String shard, PartitionCountProbe probe) {
        this.shard = shard;
        this.probe = probe;
    }

    /**
     * True if the topic has exactly {@code sealedOver} partitions now; false if that cannot be told.
     *
     * @throws PartitionCountChangedException if it has another count
     */
    boolean maySeal(int sealedOver) {
        int now;
        try {
            now = probe.partitions();
        } catch (RuntimeException e) {
            deferred = true;
            LOG.warn("cannot verify the partition count of {} before a seal, not sealing now: {}", probe.topic(),
                e.toString());
            return false;
        }
        if (now != sealedOver) {
            throw new PartitionCountChangedException(shard, probe.topic(), sealedOver, now);
        }
        deferred = false;
        return true;
    }

    /** True if the last check could not verify the count (a cover may be waiting for the next one). */
    boolean deferred() {
        return deferred;
    }
}
