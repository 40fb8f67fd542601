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
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Rebuilds shard states from the consensus topic alone: reads every committed record from the
 * beginning to the current end and applies each shard's diffs in seqno order.
 */
public final class ConsensusReader {
    private ConsensusReader() {
    }

    /** Every diff of {@code shard}, in seqno order. */
    public static List<StateDiff> diffs(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        TreeMap<Long, StateDiff> bySeqno = new TreeMap<>();
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // a reader must never create the consensus topic: a broker's default would not compact it
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        try (KafkaConsumer<String, byte[]> consumer =
                 new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .collect(Collectors.toList());
            if (partitions.isEmpty()) {
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("consensus topic " + topic + " not read to its end within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (shard.equals(ConsensusKeys.shardOf(record.key())) && record.value() != null) {
                        StateDiff diff = Codecs.STATE_DIFF.decode(record.value());
                        bySeqno.put(diff.getSeqno(), diff);
                    }
                }
            }
        }
        return new ArrayList<>(bySeqno.values());
    }

    /** The shard's state as of the topic's current end. */
    public static ShardState read(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        ShardState state = new ShardState(shard);
        diffs(clientProps, topic, shard, timeout).forEach(state::apply);
        return state;
    }

    private static boolean reachedEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
