package io.mvsink.protocol;

/**
 * The largest consensus record mvsink writes: the smaller of the consensus topic's
 * {@code max.message.bytes} (read when the app starts, {@code topology.TopicSetup}; the bound of given limits:
 * {@code topology.ConsensusTopicCheck#recordBound}) and the producer's
 * {@code max.request.size}, less {@link #HEADROOM} for the key, headers and the record batch
 * around the value. Every diff and rollup the appender writes is checked against it before it is
 * sent ({@link Appender}, {@link AppendFit}); the inline limit per batch is derived from
 * it ({@link #inlinePerBatch}).
 *
 * @param bytes the most bytes a record's value may have
 */
public record RecordBound(int bytes) {
    /** Key, headers and record batch overhead: a consensus key is a shard name and 20 characters. */
    public static final int HEADROOM = 1024;
    /** A bound this small leaves no room for a useful diff: the topic or producer is misconfigured. */
    public static final int MIN_BYTES = 4 * 1024;
    /** The broker's default {@code message.max.bytes} (1 MiB and a record batch header). */
    public static final int BROKER_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;
    /** The producer's default {@code max.request.size}. */
    public static final int PRODUCER_DEFAULT_MAX_REQUEST_SIZE = 1_048_576;
    /** The bound of a topic and producer with Kafka's defaults. */
    public static final RecordBound DEFAULT =
        new RecordBound(Math.min(BROKER_DEFAULT_MAX_MESSAGE_BYTES, PRODUCER_DEFAULT_MAX_REQUEST_SIZE) - HEADROOM);

    public RecordBound {
        if (bytes < MIN_BYTES - HEADROOM) {
            throw new IllegalArgumentException("a consensus record bound of " + bytes + " bytes is too small");
        }
    }

    public boolean fits(long size) {
        return size <= bytes;
    }

    /**
     * The inline limit per batch: {@code configured}, capped so that one inline batch per partition
     * (what one minted range brings to an append) holds at most half the bound, leaving the other half
     * to the batches' descriptions and garbage. A step that holds more batches of a partition (ranges
     * of different shapes) can still exceed it: the appender then keeps inline batches out of that
     * append ({@link AppendFit}). 0 (inline off) stays 0; the cap rounds down to 0 when there are more
     * partitions than half the bound's bytes.
     */
    public long inlinePerBatch(long configured, int partitions) {
        return Math.min(configured, (bytes / 2L) / Math.max(1, partitions));
    }
}
