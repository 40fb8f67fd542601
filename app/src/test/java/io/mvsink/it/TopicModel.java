package io.mvsink.it;

import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The independent model: reads the corrections topic back with a plain consumer and sums the
 * diffs of every update per row, by the input contract alone (no mvsink code but the wire
 * format codec). Updates at or above {@code upper} are left out.
 */
final class TopicModel {
    private TopicModel() {
    }

    static Map<String, Long> read(Map<String, Object> clientProps, String topic, SchemaRegistry registry, long upper) {
        AvroRowCodec rows = new AvroRowCodec(registry, topic + "-value");
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
                    model.merge(GenericData.get().toString(rows.deserialize(r.value())), d, Long::sum);
                }
            }
        }
        model.values().removeIf(c -> c == 0);
        return new TreeMap<>(model);
    }
}
