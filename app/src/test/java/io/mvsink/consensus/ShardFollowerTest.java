package io.mvsink.consensus;

import static io.mvsink.consensus.Diffs.batch;
import static io.mvsink.consensus.Diffs.c;
import static io.mvsink.consensus.Diffs.diff;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ShardFollower.Advance;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ShardFollowerTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private final ShardFollower follower = new ShardFollower(consumer, "t", "s", new ShardState("s"));
    private long offset;

    {
        consumer.assign(List.of(TP));
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
    }

    @Test
    void shouldReportEachSealInSeqnoOrderAndNoneForACompaction() {
        ShardState replayed = new ShardState("s");
        for (StateDiff d : seals(3)) {
            send(ConsensusKeys.diff("s", d.getSeqno()), Codecs.STATE_DIFF.encode(d));
            replayed.apply(d);
        }
        StateDiff merge = StateDiff.newBuilder(diff(4, 300, 300, 1, batch("m", c(0, 0, 300))))
            .setRemovedBatchIds(List.of("b1", "b2", "b3")).build();
        send(ConsensusKeys.diff("s", 4), Codecs.STATE_DIFF.encode(merge));
        send(ConsensusKeys.diff("other", 1), Codecs.STATE_DIFF.encode(seals(1).get(0)));

        List<Advance> advances = follower.poll(Duration.ZERO);

        assertEquals(List.of(new Advance(1, 0, 100), new Advance(2, 100, 200), new Advance(3, 200, 300)), advances);
        assertEquals(4, follower.state().seqno());
        assertEquals(1, follower.state().batches().size());
    }

    @Test
    void shouldTakeARollupWhoseDiffsTheCleanerRemovedAsOneAdvance() {
        List<StateDiff> seals = seals(7);
        ShardState atSix = new ShardState("s");
        seals.subList(0, 6).forEach(atSix::apply);
        send(ConsensusKeys.diff("s", 1), Codecs.STATE_DIFF.encode(seals.get(0)));
        send(ConsensusKeys.diff("s", 2), Codecs.STATE_DIFF.encode(seals.get(1)));
        // seqnos 3 to 6 were tombstoned by the rollup at 6 and cleaned away: only their tombstones remain
        for (long seqno = 1; seqno <= 6; seqno++) {
            send(ConsensusKeys.diff("s", seqno), null);
        }
        send(ConsensusKeys.rollup("s"), Codecs.STATE_ROLLUP.encode(atSix.rollup(0, 0)));
        send(ConsensusKeys.diff("s", 7), Codecs.STATE_DIFF.encode(seals.get(6)));

        List<Advance> advances = follower.poll(Duration.ZERO);

        assertEquals(List.of(new Advance(1, 0, 100), new Advance(2, 100, 200), new Advance(6, 200, 600),
            new Advance(7, 600, 700)), advances);
        assertEquals(7, follower.state().seqno());
        assertEquals(700, follower.state().upper());
    }

    @Test
    void shouldIgnoreARollupItHasAlreadyApplied() {
        List<StateDiff> seals = seals(2);
        ShardState atTwo = new ShardState("s");
        seals.forEach(d -> {
            send(ConsensusKeys.diff("s", d.getSeqno()), Codecs.STATE_DIFF.encode(d));
            atTwo.apply(d);
        });
        send(ConsensusKeys.rollup("s"), Codecs.STATE_ROLLUP.encode(atTwo.rollup(0, 0)));

        assertEquals(List.of(new Advance(1, 0, 100), new Advance(2, 100, 200)), follower.poll(Duration.ZERO));
        assertEquals(List.of(), follower.poll(Duration.ZERO));
    }

    /** Seals 1..n of one partition, each over the next 100 ms. */
    private static List<StateDiff> seals(int n) {
        return java.util.stream.LongStream.rangeClosed(1, n)
            .mapToObj(s -> diff(s, (s - 1) * 100, s * 100, 1, batch("b" + s, c(0, (s - 1) * 100, s * 100))))
            .toList();
    }

    private void send(String key, byte[] value) {
        consumer.addRecord(new ConsumerRecord<>("t", 0, offset++, key, value));
    }
}
