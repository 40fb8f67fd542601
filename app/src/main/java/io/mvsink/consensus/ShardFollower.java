package io.mvsink.consensus;

import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.codec.Codecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Follows one shard on the consensus topic: reads the topic to its end once (as
 * {@link ConsensusReader} does), then keeps one consumer open and applies each append as it
 * commits, in seqno order, reporting how far each one moved the upper.
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
    private final String shard;
    private final TreeMap<Long, StateDiff> pending = new TreeMap<>();
    private ShardState state;

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
        this.shard = shard;
        this.state = state;
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
            follower.state = ConsensusReader.readToEnd(follower.consumer, topic, shard, timeout).state(shard);
            follower.state.forgetRetiredBefore(Long.MAX_VALUE);
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
        return state;
    }

    /** Reads what committed since the last call (waiting at most {@code timeout}); the advances in order. */
    public List<Advance> poll(Duration timeout) {
        List<Advance> advances = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(timeout)) {
            if (record.value() == null || !shard.equals(ConsensusKeys.shardOf(record.key()))) {
                continue;
            }
            if (ConsensusKeys.isRollup(record.key())) {
                applyPending(advances);
                jump(Codecs.STATE_ROLLUP.decode(record.value()), advances);
            } else {
                StateDiff diff = Codecs.STATE_DIFF.decode(record.value());
                if (diff.getSeqno() > state.seqno()) {
                    pending.put(diff.getSeqno(), diff);
                }
            }
        }
        applyPending(advances);
        return advances;
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

    private void applyPending(List<Advance> advances) {
        while (!pending.isEmpty() && pending.firstKey() == state.seqno() + 1) {
            StateDiff diff = pending.pollFirstEntry().getValue();
            long lower = state.upper();
            state.apply(diff);
            // a follower never rolls up nor collects: what each merge retired would only grow with its life
            state.forgetRetiredBefore(Long.MAX_VALUE);
            if (state.upper() > lower) {
                advances.add(new Advance(diff.getSeqno(), lower, state.upper()));
            }
        }
    }

    /** A rollup past the state: the diffs in between were cleaned away, the rollup stands for them. */
    private void jump(StateRollup rollup, List<Advance> advances) {
        if (rollup.getSeqno() <= state.seqno()) {
            return;
        }
        long lower = state.upper();
        state = ShardState.of(rollup);
        state.forgetRetiredBefore(Long.MAX_VALUE);
        pending.headMap(rollup.getSeqno(), true).clear();
        if (state.upper() > lower) {
            advances.add(new Advance(rollup.getSeqno(), lower, state.upper()));
        }
        applyPending(advances);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
