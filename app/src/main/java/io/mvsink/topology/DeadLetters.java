package io.mvsink.topology;

import io.mvsink.metrics.ShardMetrics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
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
 *
 * <p>A dead letter larger than the producer sends or the dead-letter topic takes (its
 * {@code max.request.size} or the topic's {@code max.message.bytes}, less headroom:
 * bad input as large as a producer may write, plus these headers) goes without the record's value
 * (and, were it still too large, without its headers), with header {@value #VALUE_BYTES} giving the
 * value's size: the send would fail and stop the task at the same record at every restart, and
 * topic, partition and offset say where the record is.
 */
final class DeadLetters {
    static final String REASON = "mvsink.dlq.reason";
    static final String DETAIL = "mvsink.dlq.detail";
    static final String TOPIC = "mvsink.dlq.topic";
    static final String PARTITION = "mvsink.dlq.partition";
    static final String OFFSET = "mvsink.dlq.offset";
    static final String TIMESTAMP = "mvsink.dlq.timestamp";
    static final String VALUE_BYTES = "mvsink.dlq.value.bytes";
    /** A record's and its batch's framing beyond its key, value and headers' bytes, with room to spare. */
    private static final int RECORD_OVERHEAD = 128;
    /** Each header's framing beyond its key and value bytes, with room to spare. */
    private static final int HEADER_OVERHEAD = 10;
    /** What the headers added here take at most besides the detail: names, topic, numbers, their framing. */
    private static final int EXTRA_HEADERS = 512;

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final ProcessorContext<byte[], byte[]> context;
    private final ShardMetrics metrics;
    private final int maxBytes;

    /** {@code maxBytes}: the largest dead letter sent whole. */
    DeadLetters(ProcessorContext<byte[], byte[]> context, ShardMetrics metrics, int maxBytes) {
        this.context = context;
        this.metrics = metrics;
        this.maxBytes = maxBytes;
    }

    void send(Record<byte[], byte[]> record, String reason, String detail) {
        byte[] key = record.key();
        byte[] value = record.value();
        Headers kept = record.headers();
        String why = detail;
        if (value != null && size(key, value, kept) + EXTRA_HEADERS + why.length() * 3L > maxBytes) {
            why = detail + " (the value of " + value.length + " bytes is not copied: the dead letter would be larger"
                + " than the producer's max.request.size or the dead-letter topic's max.message.bytes allows; topic,"
                + " partition and offset say where it is)";
            value = null;
            if (size(key, null, kept) + EXTRA_HEADERS + why.length() * 3L > maxBytes) {
                key = null;
                kept = new RecordHeaders();
            }
        }
        Headers headers = new RecordHeaders(kept.toArray());
        if (value == null && record.value() != null) {
            header(headers, VALUE_BYTES, Integer.toString(record.value().length));
        }
        header(headers, REASON, reason);
        header(headers, DETAIL, why);
        context.recordMetadata().ifPresent(meta -> {
            header(headers, TOPIC, meta.topic());
            header(headers, PARTITION, Integer.toString(meta.partition()));
            header(headers, OFFSET, Long.toString(meta.offset()));
        });
        header(headers, TIMESTAMP, Long.toString(record.timestamp()));
        context.forward(new Record<>(key, value, context.currentSystemTimeMs(), headers),
            StoreNames.DEAD_LETTER_SINK);
        metrics.deadLettered(reason);
        LOG.debug("dead-lettered a record: {} ({})", reason, why);
    }

    /** The bytes of a record with this key, value and headers, framing included (an upper bound). */
    private static long size(byte[] key, byte[] value, Headers headers) {
        long size = RECORD_OVERHEAD + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Header h : headers) {
            size += HEADER_OVERHEAD + h.key().length() * 3L + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    private static void header(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
