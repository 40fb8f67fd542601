package io.mvsink.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The catch-up bench's floor: a plain consumer that reads the whole topic (every partition, from
 * the beginning, no group) to the end offsets it found at start, writes the records it read to a
 * result file, then waits to be stopped (so that the bench reads its {@code /proc} while it lives).
 *
 * <p>Arguments: bootstrap servers, topic, result file.
 */
public final class PlainConsumer {
    private PlainConsumer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PlainConsumer <bootstrap> <topic> <result file>");
        }
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0],
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(args[1]).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (!partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                records += consumer.poll(Duration.ofMillis(100)).count();
            }
        }
        Path result = Path.of(args[2]);
        Path tmp = result.resolveSibling(result.getFileName() + ".tmp");
        Files.writeString(tmp, String.format(Locale.ROOT, "%d%n", records));
        Files.move(tmp, result, StandardCopyOption.ATOMIC_MOVE);
        Thread.sleep(Long.MAX_VALUE);
    }
}
