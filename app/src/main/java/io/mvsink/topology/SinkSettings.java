package io.mvsink.topology;

import io.mvsink.protocol.RecordBound;
import java.time.Duration;
import java.util.Objects;

/**
 * What the processors of one shard are told by the app's options, by name: built once in
 * {@code Wiring.sinkSettings}, and in tests from {@link #of} with the {@code with} methods, so that
 * no call passes a run of numbers whose order only the constructor knows.
 *
 * @param shard the shard's name ({@code shard.name})
 * @param subject the registry subject of the rows ({@code row.subject})
 * @param intervalMs the batch interval, the grid that updates are grouped on ({@code batch.interval.ms})
 * @param partitionCount the corrections topic's partitions when the app started
 * @param punctuate how often the processors look at their state ({@code punctuate.interval.ms})
 * @param recontribute a contribution not sealed this long after hand-off is contributed again
 *     ({@code recontribute.timeout.ms})
 * @param maxRowBytes a larger row is bad input ({@code max.row.bytes})
 * @param recordBytes the largest record the app's producer sends and the shard's changelog and
 *     dead-letter topics take (its {@code max.request.size} or their {@code max.message.bytes}, whichever
 *     is least, less headroom): a larger row is bad input, a larger dead letter goes without the bad
 *     record's value
 */
public record SinkSettings(String shard, String subject, long intervalMs, int partitionCount, Duration punctuate,
                           Duration recontribute, int maxRowBytes, int recordBytes) {
    /** The record bound under the producer's default {@code max.request.size}. */
    public static final int DEFAULT_RECORD_BYTES = RecordBound.PRODUCER_DEFAULT_MAX_REQUEST_SIZE - RecordBound.HEADROOM;

    public SinkSettings {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(punctuate, "punctuate");
        Objects.requireNonNull(recontribute, "recontribute");
        if (intervalMs < 1) {
            throw new IllegalArgumentException("the batch interval must be positive: " + intervalMs);
        }
        if (partitionCount < 1) {
            throw new IllegalArgumentException("a corrections topic has at least one partition: " + partitionCount);
        }
        if (punctuate.isNegative() || punctuate.isZero() || recontribute.isNegative() || recontribute.isZero()) {
            throw new IllegalArgumentException("the punctuation and re-contribution periods must be positive: "
                + punctuate + ", " + recontribute);
        }
        if (maxRowBytes < 1 || recordBytes < 1) {
            throw new IllegalArgumentException("the row and dead-letter bounds must be positive: " + maxRowBytes
                + ", " + recordBytes);
        }
    }

    /**
     * The options' defaults for {@code shard}'s rows under {@code subject}: a 1 s interval, one
     * partition, punctuation every 100 ms, re-contribution after 60 s, rows of up to 1 MiB, dead
     * letters whole up to the producer's default request size less headroom.
     */
    public static SinkSettings of(String shard, String subject) {
        return new SinkSettings(shard, subject, 1000, 1, Duration.ofMillis(100), Duration.ofSeconds(60), 1 << 20,
            DEFAULT_RECORD_BYTES);
    }

    public SinkSettings withIntervalMs(long intervalMs) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }

    public SinkSettings withPartitions(int partitionCount) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }

    public SinkSettings withPunctuate(Duration punctuate) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }

    public SinkSettings withRecontribute(Duration recontribute) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }

    public SinkSettings withMaxRowBytes(int maxRowBytes) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }

    public SinkSettings withRecordBytes(int recordBytes) {
        return new SinkSettings(shard, subject, intervalMs, partitionCount, punctuate, recontribute, maxRowBytes, recordBytes);
    }
}
