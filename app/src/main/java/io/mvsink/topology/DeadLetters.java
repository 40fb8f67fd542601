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
 * key, value and headers plus headers that say why and where it came from.
 */
final class DeadLetters {
    static final String REASON = "mvsink.dlq.reason";
    static final String DETAIL = "mvsink.dlq.detail";
    static final String TOPIC = "mvsink.dlq.topic";
    static final String PARTITION = "mvsink.dlq.partition";
    static final String OFFSET = "mvsink.dlq.offset";

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
        long timestamp = Math.max(0, record.timestamp());
        context.forward(new Record<>(record.key(), record.value(), timestamp, headers), StoreNames.DEAD_LETTER_SINK);
        metrics.deadLettered(reason);
        LOG.debug("shard {}: dead-lettered a record: {} ({})", metrics.shard(), reason, detail);
    }

    private static void header(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
