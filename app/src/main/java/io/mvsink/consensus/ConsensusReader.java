package io.mvsink.consensus;

import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
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
 * beginning to the current end, keeps the latest value of each key (as the compacted topic will),
 * and applies the diffs after the shard's latest rollup to it in seqno order.
 */
public final class ConsensusReader {
    private ConsensusReader() {
    }

    /**
     * What the topic holds for one shard: its latest rollup (or null), the diffs that still have a
     * value, every diff record still in the log, and how many records of the shard (tombstones
     * included) the log still holds.
     */
    public record Log(StateRollup rollup, List<StateDiff> diffs, List<StateDiff> history, long records,
                      ShardGrace grace) {
        /** The shard's state: the rollup plus every later diff, with its grace record. */
        public ShardState state(String shard) {
            ShardState state = rollup == null ? new ShardState(shard) : ShardState.of(rollup);
            state.recordGrace(grace);
            for (StateDiff diff : diffs) {
                if (diff.getSeqno() > state.seqno()) {
                    state.apply(diff);
                }
            }
            return state;
        }
    }

    /**
     * Every diff of {@code shard} the topic still holds, tombstoned or not, in seqno order: the
     * shard's history as far as the log cleaner has left it (tests and figures use it).
     */
    public static List<StateDiff> diffs(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        return log(clientProps, topic, shard, timeout).history();
    }

    /** The shard's state as of the topic's current end. */
    public static ShardState read(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        return log(clientProps, topic, shard, timeout).state(shard);
    }

    /** The shard's records as of the topic's current end. */
    public static Log log(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        try (KafkaConsumer<String, byte[]> consumer = consumer(clientProps)) {
            List<TopicPartition> partitions = partitions(consumer, topic, timeout);
            if (partitions.isEmpty()) {
                return new Log(null, List.of(), List.of(), 0, null);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return readToEnd(consumer, topic, shard, timeout);
        }
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

    /** Reads the assigned partitions from their positions to their current end offsets. */
    static Log readToEnd(Consumer<String, byte[]> consumer, String topic, String shard, Duration timeout) {
        Map<String, byte[]> latest = new HashMap<>();
        TreeMap<Long, StateDiff> history = new TreeMap<>();
        long records = 0;
        String graceKey = ConsensusKeys.grace(shard);
        ShardGrace grace = null;
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reachedEnd(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("consensus topic " + topic + " not read to its end within " + timeout);
            }
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (graceKey.equals(record.key())) {
                    grace = record.value() == null ? null : ShardGrace.of(Codecs.GRACE.decode(record.value()));
                    continue;
                }
                if (!shard.equals(ConsensusKeys.shardOf(record.key()))) {
                    continue;
                }
                latest.put(record.key(), record.value());
                records++;
                if (record.value() != null && !ConsensusKeys.isRollup(record.key())) {
                    StateDiff diff = Codecs.STATE_DIFF.decode(record.value());
                    history.put(diff.getSeqno(), diff);
                }
            }
        }
        byte[] rollupBytes = latest.remove(ConsensusKeys.rollup(shard));
        StateRollup rollup = rollupBytes == null ? null : Codecs.STATE_ROLLUP.decode(rollupBytes);
        TreeMap<Long, StateDiff> live = new TreeMap<>();
        latest.forEach((key, value) -> {
            if (value != null) {
                StateDiff diff = Codecs.STATE_DIFF.decode(value);
                live.put(diff.getSeqno(), diff);
            }
        });
        return new Log(rollup, new ArrayList<>(live.values()), new ArrayList<>(history.values()), records, grace);
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
