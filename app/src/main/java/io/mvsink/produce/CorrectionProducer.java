package io.mvsink.produce;

import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes corrections by mvsink's input contract: updates as Confluent wire-format Avro with the
 * time as record timestamp and the diff in header {@code mvsink.diff}, keyed by row key so that
 * an update and its retraction meet in one partition; progress as a null value with header
 * {@code mvsink.upper}, sent to every partition. Idempotent, acks=all, one request in flight, so
 * order per partition holds: an update sent before a progress record is never behind it. A record
 * that could not be written fails the next send and {@link #flush()}: nothing is sent after it.
 */
public final class CorrectionProducer implements CorrectionSink, AutoCloseable {
    public static final String DIFF_HEADER = "mvsink.diff";
    public static final String UPPER_HEADER = "mvsink.upper";

    private final Producer<byte[], byte[]> producer;
    private final AvroRowCodec rows;
    private final String topic;
    private final SchemaRegistry registry;
    private boolean compatibilityChecked;
    private final int partitions;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

    /**
     * A producer of {@code topic}'s corrections whose row schemas are registered under
     * {@code subject}: the shard's row subject ({@code MvsinkConfig.rowSubject()}, by default
     * {@code <topic>-value}), the only subject whose versions the shard accepts.
     */
    public CorrectionProducer(Map<String, Object> clientProps, String topic, String subject, SchemaRegistry registry) {
        this(kafkaProducer(clientProps), topic, subject, registry);
    }

    private static Producer<byte[], byte[]> kafkaProducer(Map<String, Object> clientProps) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        // one request in flight per broker: with more, a first batch that fails retriably on a partition the
        // broker holds no state of this producer for can be overtaken by the next one, which the broker then
        // takes, and the retried first batch is refused until it expires (seen on a fresh topic)
        props.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A producer of {@code topic}'s corrections through {@code producer} (a mock in tests). */
    CorrectionProducer(Producer<byte[], byte[]> producer, String topic, String subject, SchemaRegistry registry) {
        this.producer = producer;
        this.rows = new AvroRowCodec(registry, subject);
        this.registry = registry;
        this.topic = topic;
        this.partitions = producer.partitionsFor(topic).size();
    }

    /**
     * Sets the row subject to BACKWARD unless it has a level of its own (Apicurio and some
     * registries default to NONE, which would let an incompatible schema in).
     */
    private static void ensureBackward(SchemaRegistry registry, String subject) {
        if ("NONE".equals(registry.compatibility(subject))) {
            registry.setCompatibility(subject, "BACKWARD");
        }
    }

    public int partitions() {
        return partitions;
    }

    /**
     * Sends one update; the row's schema is registered under the subject on first use,
     * and the subject is set to BACKWARD if it has no stricter level.
     */
    @Override
    public void update(String rowKey, GenericRecord row, long time, long diff) {
        send(rowKey, row, time, diff);
    }

    /** Sends one update and returns its send future. */
    public Future<RecordMetadata> send(String rowKey, GenericRecord row, long time, long diff) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DIFF_HEADER, Long.toString(diff).getBytes(StandardCharsets.UTF_8));
        byte[] value = rows.serialize(row);
        if (!compatibilityChecked) {
            ensureBackward(registry, rows.subject());
            compatibilityChecked = true;
        }
        return send(new ProducerRecord<>(topic, null, time, rowKey.getBytes(StandardCharsets.UTF_8), value, headers));
    }

    @Override
    public void progress(long upper) {
        for (int p = 0; p < partitions; p++) {
            progressOn(p, upper);
        }
    }

    /** Promises one partition that no update with {@code time < upper} follows. */
    public Future<RecordMetadata> progressOn(int partition, long upper) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(UPPER_HEADER, Long.toString(upper).getBytes(StandardCharsets.UTF_8));
        return send(new ProducerRecord<>(topic, partition, upper, null, null, headers));
    }

    private Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        throwIfFailed();
        sent.incrementAndGet();
        return producer.send(record, (metadata, e) -> {
            if (e != null) {
                failed.incrementAndGet();
                firstFailure.compareAndSet(null, e);
            }
        });
    }

    /**
     * Waits for every record sent so far.
     *
     * @throws IllegalStateException a record was not written (after the producer's own retries):
     *     the topic may lack updates that progress records sent after them promise, so nothing more is sent
     */
    @Override
    public void flush() {
        producer.flush();
        throwIfFailed();
    }

    private void throwIfFailed() {
        Exception e = firstFailure.get();
        if (e != null) {
            throw new IllegalStateException(failed.get() + " of " + sent.get() + " records sent to " + topic
                + " were not written; the first failed with: " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
