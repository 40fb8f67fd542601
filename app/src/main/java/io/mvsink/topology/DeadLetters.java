package io.mvsink.topology;

import io.mvsink.metrics.ShardMetrics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends bad input to the dead-letter topic, inside the task's transaction, with the original
 * key, value and headers plus headers that say why and where it came from. The dead letter is
 * stamped with the wall-clock time it was sent, the record's timestamp as read (for a record
 * {@link InvalidTimestampMarker} marked, the partition time it was given) kept in header
 * {@value #TIMESTAMP}: an update's timestamp is its (logical) time, and the broker's time-based
 * retention counts from record timestamps, so a dead letter stamped with an old update time
 * would be deleted at the broker's next retention check instead of being kept for its operator.
 */
final class DeadLetters {
    static final String REASON = "mvsink.dlq.reason";
    static final String DETAIL = "mvsink.dlq.detail";
    static final String TOPIC = "mvsink.dlq.topic";
    static final String PARTITION = "mvsink.dlq.partition";
    static final String OFFSET = "mvsink.dlq.offset";
    static final String TIMESTAMP = "mvsink.dlq.timestamp";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final ProcessorContext<byte[], byte[]> context;
    private final ShardMetrics metrics;

    DeadLetters(ProcessorContext<byte[], byte[]> context, ShardMetrics metrics) {
        this.context = context;
        this.metrics = metrics;
    }

    void send(Record<byte[], byte[]> record, String reason, String detail) {
        Headers headers = new RecordHeaders(record.headers().toArray());
        header(headers, REASON, reason);
        header(headers, DETAIL, detail);
        context.recordMetadata().ifPresent(meta -> {
            header(headers, TOPIC, meta.topic());
            header(headers, PARTITION, Integer.toString(meta.partition()));
            header(headers, OFFSET, Long.toString(meta.offset()));
        });
        header(headers, TIMESTAMP, Long.toString(record.timestamp()));
        context.forward(new Record<>(record.key(), record.value(), context.currentSystemTimeMs(), headers),
            StoreNames.DEAD_LETTER_SINK);
        metrics.deadLettered(reason);
        LOG.debug("dead-lettered a record: {} ({})", reason, detail);
    }

    private static void header(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
