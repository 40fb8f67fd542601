package io.mvsink.produce;

import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes corrections by mvsink's input contract: updates as Confluent wire-format Avro with the
 * time as record timestamp and the diff in header {@code mvsink.diff}, keyed by row key so that
 * an update and its retraction meet in one partition; progress as a null value with header
 * {@code mvsink.upper}, sent to every partition. Idempotent, acks=all, so order per partition
 * holds: an update sent before a progress record is never behind it.
 */
public final class CorrectionProducer implements CorrectionSink, AutoCloseable {
    public static final String DIFF_HEADER = "mvsink.diff";
    public static final String UPPER_HEADER = "mvsink.upper";

    private final KafkaProducer<byte[], byte[]> producer;
    private final AvroRowCodec rows;
    private final String topic;
    private final SchemaRegistry registry;
    private boolean compatibilityChecked;
    private final int partitions;

    /**
     * A producer of {@code topic}'s corrections whose row schemas are registered under
     * {@code subject}: the shard's row subject ({@code MvsinkConfig.rowSubject()}, by default
     * {@code <topic>-value}), the only subject whose versions the shard accepts.
     */
    public CorrectionProducer(Map<String, Object> clientProps, String topic, String subject, SchemaRegistry registry) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
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
        return producer.send(new ProducerRecord<>(topic, null, time,
            rowKey.getBytes(StandardCharsets.UTF_8), value, headers));
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
        return producer.send(new ProducerRecord<>(topic, partition, upper, null, null, headers));
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
