package io.mvsink.consensus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Follows one shard on the consensus topic: reads the topic to its end once (as
 * {@link ConsensusReader} does), then keeps one consumer open and applies each append as it
 * commits, in seqno order, reporting how far each one moved the upper.
 *
 * <p>It folds each record into the state as it reads it ({@link ShardFold}), the first read to the
 * end included, so it holds the live shard, never the topic's uncleaned history.
 *
 * <p>A follower that lags behind the log cleaner may find the diffs of some seqnos gone (a rollup
 * tombstoned them) and the shard's newer rollup in their place: it then takes the rollup's state
 * and reports one {@link Advance} over every seal the rollup covers. So a rollup never stops a
 * follower, it only coarsens what it can tell apart. The state it keeps forgets the blobs merges
 * retired (a follower neither rolls up nor collects), so it stays as small as the live batches.
 * Not thread-safe.
 */
public final class ShardFollower implements AutoCloseable {
    private final Consumer<String, byte[]> consumer;
    private final String topic;
    private ShardFold fold;

    /**
     * The upper moved from {@code lower} to {@code upper} with the append at {@code seqno}: one seal,
     * or, after a rollup jump, every seal up to that seqno.
     */
    public record Advance(long seqno, long lower, long upper) {
    }

    /**
     * A follower at {@code state} that reads on from {@code consumer}'s positions: for a caller that
     * brings its own consumer of {@code topic} (tests bring a {@code MockConsumer}). It closes the consumer.
     */
    public ShardFollower(Consumer<String, byte[]> consumer, String topic, String shard, ShardState state) {
        this.consumer = consumer;
        this.topic = topic;
        this.fold = state == null ? null : new ShardFold(state, false);
    }

    /**
     * Reads {@code topic} to its current end and stays at it.
     *
     * @throws IllegalArgumentException if the topic does not exist (a reader never creates it)
     */
    public static ShardFollower open(Map<String, Object> clientProps, String topic, String shard, Duration timeout) {
        ShardFollower follower = new ShardFollower(ConsensusReader.consumer(clientProps), topic, shard, null);
        try {
            List<TopicPartition> partitions = ConsensusReader.partitions(follower.consumer, topic, timeout);
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("consensus topic " + topic + " does not exist: is consensus.topic "
                    + "(or application.id) the app's?");
            }
            follower.consumer.assign(partitions);
            follower.consumer.seekToBeginning(partitions);
            follower.fold = ShardFold.of(shard, partitions.size() == 1);
            ConsensusReader.scanToEnd(follower.consumer, topic, timeout, follower::take);
            return follower;
        } catch (RuntimeException e) {
            follower.close();
            throw e;
        }
    }

    /** The consensus topic followed. */
    public String topic() {
        return topic;
    }

    /** The shard's state as of the last record read. */
    public ShardState state() {
        return fold.state();
    }

    /** Reads what committed since the last call (waiting at most {@code timeout}); the advances in order. */
    public List<Advance> poll(Duration timeout) {
        List<Advance> advances = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(timeout)) {
            advances.addAll(take(record));
        }
        return advances;
    }

    /** Folds one record into the state, which forgets retired blobs (a follower neither rolls up nor collects). */
    private List<Advance> take(ConsumerRecord<String, byte[]> record) {
        List<Advance> steps = fold.accept(record.key(), record.value());
        fold.state().forgetRetiredBefore(Long.MAX_VALUE);
        return steps;
    }

    /** Polls until the topic's end as of this call is read; the advances in order. */
    public List<Advance> catchUp(Duration timeout) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        List<Advance> advances = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new org.apache.kafka.common.errors.TimeoutException("consensus topic " + topic
                    + " not read to its end within " + timeout);
            }
            advances.addAll(poll(Duration.ofMillis(200)));
        }
        return advances;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
