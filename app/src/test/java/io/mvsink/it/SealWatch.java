package io.mvsink.it;

import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Tails a shard's consensus topic (committed records only) on a thread of its own: the shard's
 * upper as appends land, and the longest time the upper stood still since the watch started.
 * Cheap to ask often, unlike reading the topic from the beginning.
 */
final class SealWatch implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final String shard;
    private final Thread thread;
    private volatile boolean closing;
    private volatile long upper;
    private volatile long lastAdvanceNanos = System.nanoTime();
    private volatile long longestStallNanos;
    private final List<Long> advancesMs = new CopyOnWriteArrayList<>();

    SealWatch(Map<String, Object> clientProps, String topic, String shard) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        this.shard = shard;
        TopicPartition partition = new TopicPartition(topic, 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        this.thread = new Thread(this::tail, "seal-watch-" + shard);
        thread.setDaemon(true);
        thread.start();
    }

    /** The upper of the latest committed append seen. */
    long upper() {
        return upper;
    }

    /** The longest time without an append that advanced the upper, counting the current wait. */
    Duration longestStall() {
        return Duration.ofNanos(Math.max(longestStallNanos, System.nanoTime() - lastAdvanceNanos));
    }

    private void tail() {
        try {
            while (!closing) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (shard.equals(ConsensusKeys.shardOf(record.key())) && record.value() != null
                        && (ConsensusKeys.isRollup(record.key()) || ConsensusKeys.isDiff(record.key()))) {
                        long recordUpper = ConsensusKeys.isRollup(record.key())
                            ? Codecs.STATE_ROLLUP.decode(record.value()).getUpper()
                            : Codecs.STATE_DIFF.decode(record.value()).getUpper();
                        if (recordUpper > upper) {
                            advance(recordUpper);
                        }
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Wall-clock times of the appends that advanced the upper. */
    List<Long> advancesMs() {
        return List.copyOf(advancesMs);
    }

    private void advance(long to) {
        advancesMs.add(System.currentTimeMillis());
        long now = System.nanoTime();
        if (upper > 0) {
            longestStallNanos = Math.max(longestStallNanos, now - lastAdvanceNanos);
        }
        lastAdvanceNanos = now;
        upper = to;
    }

    @Override
    public void close() throws InterruptedException {
        closing = true;
        consumer.wakeup();
        thread.join(10_000);
    }
}
