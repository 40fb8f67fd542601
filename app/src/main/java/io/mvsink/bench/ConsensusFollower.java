package io.mvsink.bench;

import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardState;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Time;

/**
 * Follows one shard's consensus topic as the appends commit (read_committed, from the beginning,
 * never re-reading): the upper, the seals (appends that advance the upper), the batches and parts
 * they add, and when the bench first saw an append. Waits for the topic to exist (the app creates
 * it) and never creates it.
 *
 * <p>An append is timed when the poll that read it returns, before it is decoded: the bench JVM's
 * first decode of a diff loads Avro's classes for it, about 0.6 s on the 2-core machine, which was
 * counted into the sink's launch to first append ({@code ConsensusFollowerIT}).
 */
final class ConsensusFollower implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final String topic;
    private final String shard;
    private final Function<byte[], StateDiff> decoder;
    private final Time time;
    private final Map<Long, Long> sealReadAtMs = new ConcurrentHashMap<>();
    private boolean assigned;
    private long upper;
    private long seals;
    private long batches;
    private long parts;
    private long firstAppendNanos = -1;

    ConsensusFollower(Map<String, Object> clientProps, String topic, String shard) {
        this(clientProps, topic, shard, Codecs.STATE_DIFF::decode, Time.SYSTEM);
    }

    /** A follower that decodes each diff with {@code decoder} and reads the times off {@code time}. */
    ConsensusFollower(Map<String, Object> clientProps, String topic, String shard,
                      Function<byte[], StateDiff> decoder, Time time) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        this.topic = topic;
        this.shard = shard;
        this.decoder = decoder;
        this.time = time;
    }

    /** Reads what committed since the last call, waiting at most {@code timeout} for it. */
    void poll(Duration timeout) throws InterruptedException {
        if (!assigned && !assign()) {
            Thread.sleep(timeout.toMillis());
            return;
        }
        ConsumerRecords<String, byte[]> records = consumer.poll(timeout);
        long readAtNanos = time.nanoseconds();
        long readAtMs = time.milliseconds();
        for (ConsumerRecord<String, byte[]> record : records) {
            if (record.value() == null || ConsensusKeys.isRollup(record.key())
                || !shard.equals(ConsensusKeys.shardOf(record.key()))) {
                continue;
            }
            apply(decoder.apply(record.value()), readAtNanos, readAtMs);
        }
    }

    private boolean assign() {
        if (!consumer.listTopics(Duration.ofSeconds(10)).containsKey(topic)) {
            return false;
        }
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
            .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        assigned = true;
        return true;
    }

    private void apply(StateDiff diff, long readAtNanos, long readAtMs) {
        if (firstAppendNanos < 0) {
            firstAppendNanos = readAtNanos;
        }
        if (ShardState.isCompaction(diff) || diff.getUpper() <= upper) {
            return;
        }
        upper = diff.getUpper();
        sealReadAtMs.put(diff.getSeqno(), readAtMs);
        seals++;
        batches += diff.getAdded().size();
        diff.getAdded().forEach(batch -> parts += batch.getParts().size());
    }

    long upper() {
        return upper;
    }

    long seals() {
        return seals;
    }

    long batches() {
        return batches;
    }

    long parts() {
        return parts;
    }

    /** The wall-clock ms when each seal (by seqno) was read: about when its transaction committed. */
    Map<Long, Long> sealReadAtMs() {
        return sealReadAtMs;
    }

    /** The clock's nanoseconds ({@link System#nanoTime()}) when the first append was read; -1 before. */
    long firstAppendNanos() {
        return firstAppendNanos;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
