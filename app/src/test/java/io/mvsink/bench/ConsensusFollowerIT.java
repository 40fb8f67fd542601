package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catch-up bench's launch to first append is timed when the follower's poll returns the
 * append, not after the bench decoded it: a cold first decode (Avro's classes loaded in the bench's
 * JVM) took about 0.6 s and was counted as the sink's.
 */
@ExtendWith(LocalStackExtension.class)
class ConsensusFollowerIT {
    private static final long COLD_DECODE_MS = 600;

    @Test
    void shouldTimeAnAppendWhenItsPollReturnsNotAfterItIsDecoded(LocalStack stack) throws Exception {
        String topic = "follower-" + UUID.randomUUID().toString().substring(0, 8) + "-consensus";
        String shard = "follower-shard";
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(client, new StringSerializer(),
            new ByteArraySerializer())) {
            for (long seqno = 1; seqno <= 2; seqno++) {
                producer.send(new ProducerRecord<>(topic, ConsensusKeys.diff(shard, seqno),
                    Codecs.STATE_DIFF.encode(diff(shard, seqno)))).get(30, TimeUnit.SECONDS);
            }
        }
        MockTime time = new MockTime();
        long polledNanos = time.nanoseconds();
        long polledMs = time.milliseconds();
        // each decode takes as long as a cold one did
        try (ConsensusFollower follower = new ConsensusFollower(client, topic, shard, bytes -> {
            time.sleep(COLD_DECODE_MS);
            return Codecs.STATE_DIFF.decode(bytes);
        }, time)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (follower.seals() < 2 && System.nanoTime() < deadline) {
                follower.poll(Duration.ofMillis(200));
            }

            assertEquals(2, follower.seals(), "both appends read");
            assertEquals(2_000, follower.upper());
            assertEquals(polledNanos, follower.firstAppendNanos(), "the first append is timed as its poll returned");
            assertEquals(Map.of(1L, polledMs, 2L, polledMs), follower.sealReadAtMs(),
                "each seal is timed as its poll returned, not after the diffs before it were decoded");
        }
    }

    private static StateDiff diff(String shard, long seqno) {
        return StateDiff.newBuilder().setShard(shard).setSeqno(seqno).setLower((seqno - 1) * 1_000)
            .setUpper(seqno * 1_000).setPartitionCount(1).setAdded(new ArrayList<>()).setAppendedAtMs(0L).build();
    }
}
