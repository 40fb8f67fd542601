package io.mvsink.consensus;

import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Rebuilds shard states from the consensus topic alone: reads every committed record from the
 * beginning to the current end and folds the shard's records into its state as they come
 * ({@link ShardFold}): a reader holds the live shard (the newest rollup and the diffs after it),
 * never the diffs the log cleaner has not removed yet.
 */
public final class ConsensusReader {
    private ConsensusReader() {
    }

    /**
     * What a read of the topic found for one shard: its state as of the topic's end and how many
     * records of the shard (tombstones included) the log still holds.
     */
    public record Log(ShardState state, long records) {
    }

    /**
     * Every diff of {@code shard} the topic still holds, tombstoned or not, in seqno order: the
     * shard's history as far as the log cleaner has left it. It holds all of it in memory: for tests
     * and bench figures, never for the app or a command.
     */
    public static List<StateDiff> diffs(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        TreeMap<Long, StateDiff> history = new TreeMap<>();
        try (KafkaConsumer<String, byte[]> consumer = consumer(clientProps)) {
            List<TopicPartition> partitions = partitions(consumer, topic, timeout);
            if (partitions.isEmpty()) {
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            scanToEnd(consumer, topic, timeout, record -> {
                if (record.value() != null && shard.equals(ConsensusKeys.shardOf(record.key()))
                    && ConsensusKeys.isDiff(record.key())) {
                    StateDiff diff = Codecs.STATE_DIFF.decode(record.value());
                    history.put(diff.getSeqno(), diff);
                }
            });
        }
        return new ArrayList<>(history.values());
    }

    /** The shard's state as of the topic's current end. */
    public static ShardState read(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        return log(clientProps, topic, shard, timeout).state();
    }

    /** The shard's state and record count as of the topic's current end. */
    public static Log log(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        try (KafkaConsumer<String, byte[]> consumer = consumer(clientProps)) {
            List<TopicPartition> partitions = partitions(consumer, topic, timeout);
            if (partitions.isEmpty()) {
                return new Log(new ShardState(shard), 0);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return readToEnd(consumer, topic, shard, timeout);
        }
    }

    /** Folds {@code shard}'s records from the assigned partitions' positions to their current end. */
    static Log readToEnd(Consumer<String, byte[]> consumer, String topic, String shard, Duration timeout) {
        ShardFold fold = ShardFold.of(shard, consumer.assignment().size() == 1);
        scanToEnd(consumer, topic, timeout, record -> fold.accept(record.key(), record.value()));
        return new Log(fold.state(), fold.records());
    }

    /** A read_committed consumer of the consensus topic that never creates it and commits nothing. */
    static KafkaConsumer<String, byte[]> consumer(Map<String, Object> clientProps) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // a reader must never create the consensus topic: a broker's default would not compact it
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** The topic's partitions; empty if it does not exist. */
    static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic, Duration timeout) {
        return consumer.partitionsFor(topic, timeout).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .collect(Collectors.toList());
    }

    /**
     * Reads the assigned partitions from their positions to their end offsets as of this call (for a
     * read_committed consumer, the last stable offsets), handing each record to {@code sink}.
     */
    static void scanToEnd(Consumer<String, byte[]> consumer, String topic, Duration timeout,
                          java.util.function.Consumer<ConsumerRecord<String, byte[]>> sink) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reachedEnd(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("consensus topic " + topic + " not read to its end within " + timeout);
            }
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                sink.accept(record);
            }
        }
    }

    private static boolean reachedEnd(Consumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
