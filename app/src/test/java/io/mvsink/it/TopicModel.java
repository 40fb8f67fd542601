package io.mvsink.it;

import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The independent model: reads the corrections topic back with a plain consumer and sums the
 * diffs of every update per row, by the input contract alone (no mvsink code but the wire
 * format codec). Every row is read into the latest schema of the row subject (by default
 * {@code <topic>-value}; plain Avro schema resolution), so rows written under older versions count as the latest version's rows;
 * a row whose writer schema the latest version cannot read is bad input by the contract (it is
 * dead-lettered) and left out. Updates at or above {@code upper} are left out.
 */
final class TopicModel {
    private TopicModel() {
    }

    static Map<String, Long> read(Map<String, Object> clientProps, String topic, SchemaRegistry registry, long upper) {
        return read(clientProps, topic, topic + "-value", registry, upper);
    }

    /** The model with rows read into the latest schema of {@code subject}. */
    static Map<String, Long> read(Map<String, Object> clientProps, String topic, String subject, SchemaRegistry registry,
                                  long upper) {
        AvroRowCodec rows = new AvroRowCodec(registry, subject);
        Schema latest = registry.latest(subject).schema();
        Map<String, Long> model = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(clientProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null || r.timestamp() >= upper) {
                        continue;
                    }
                    Header diff = r.headers().lastHeader("mvsink.diff");
                    long d = diff == null ? 1 : Long.parseLong(new String(diff.value(), StandardCharsets.UTF_8));
                    if (!readable(latest, registry.schemaById(rows.validate(r.value())))) {
                        continue;
                    }
                    model.merge(GenericData.get().toString(inSchema(latest, registry, r.value())), d, Long::sum);
                }
            }
        }
        model.values().removeIf(c -> c == 0);
        return new TreeMap<>(model);
    }

    private static boolean readable(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
            == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    /** The row of a wire-format value, read from its writer schema into {@code reader}. */
    static GenericRecord inSchema(Schema reader, SchemaRegistry registry, byte[] value) {
        Schema writer = registry.schemaById(WireFormat.schemaId(value));
        try {
            return new GenericDatumReader<GenericRecord>(writer, reader).read(null, DecoderFactory.get()
                .binaryDecoder(value, WireFormat.HEADER_SIZE, value.length - WireFormat.HEADER_SIZE, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
