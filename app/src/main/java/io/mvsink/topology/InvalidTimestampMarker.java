package io.mvsink.topology;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * The corrections source's timestamp extractor. Kafka Streams silently drops a record whose
 * extracted timestamp is negative (and its default extractor kills the stream thread), but an
 * update without a time is bad input that must reach the dead-letter topic. So a negative record
 * timestamp is replaced by the partition time (0 before the first record) and the record is
 * marked with header {@value #HEADER} holding the original, which the decoder refuses.
 */
final class InvalidTimestampMarker implements TimestampExtractor {
    static final String HEADER = "mvsink.invalid-timestamp";

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long timestamp = record.timestamp();
        if (timestamp >= 0) {
            return timestamp;
        }
        record.headers().remove(HEADER);
        record.headers().add(HEADER, Long.toString(timestamp).getBytes(StandardCharsets.UTF_8));
        return Math.max(0, partitionTime);
    }
}
