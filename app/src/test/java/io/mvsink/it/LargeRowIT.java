package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.topology.SinkTopology;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows larger than a MiB, as a user takes them: {@code max.row.bytes} and the producer's
 * {@code max.request.size} raised to 4 MiB, the corrections topic taking 4 MiB records, and a row of
 * 2 MB among small ones. Before this test the row was accepted (it is within both options), buffered,
 * and written as one changelog record to a changelog topic that mvsink had created with the broker's
 * default {@code max.message.bytes} (1 MiB): the broker refused it, the app stopped at that record at
 * every restart, and nothing after it on the partition was ever sealed. The same for a dead letter of
 * that size on the dead-letter topic. Now the topics mvsink creates take what its producer sends, and
 * a topic that exists with less bounds the rows it buffers (a larger one is dead-lettered).
 */
@ExtendWith(LocalStackExtension.class)
class LargeRowIT {
    private static final int LIMIT = 4 * 1024 * 1024;
    private static final int LARGE = 2_000_000;

    /** Options as a user raises them for rows up to 4 MiB. */
    private static Properties raised() {
        Properties props = new Properties();
        props.put(MvsinkConfig.MAX_ROW_BYTES, Integer.toString(LIMIT));
        props.put("streams.producer.max.request.size", Integer.toString(LIMIT + 64 * 1024));
        return props;
    }

    /** The shard's own topics (changelogs, dead letters) take what its producer sends: the large row is sealed. */
    @Test
    void shouldSealARowLargerThanAMebibyteWhenTheProducerMayWriteIt(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, raised());
             CorrectionProducer producer = largeProducer(sink)) {
            acceptLargeRecords(sink, sink.correctionsTopic());
            largeRowThenSmallOnes(sink, producer);
            Map<String, Long> model = sink.assertSealedExactly(5_000);
            assertTrue(model.containsKey(GenericData.get().toString(row(0, LARGE))), "the large row is sealed");
        }
    }

    /**
     * A changelog topic that exists with a smaller {@code max.message.bytes} (made by an earlier start
     * before the options were raised, or by an operator): a row it cannot hold is dead-lettered as
     * oversized, naming the topic, and what follows it is sealed.
     */
    @Test
    void shouldDeadLetterARowItsChangelogTopicCannotHoldAndSealWhatFollows(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, raised());
             CorrectionProducer producer = largeProducer(sink)) {
            try (Admin admin = Admin.create(sink.clientProps())) {
                // as an operator (or an earlier start, before the options were raised) made them
                admin.createTopics(SinkTopology.changelogs(sink.name, 1, 1).entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1)
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)))
                    .toList()).all().get(30, TimeUnit.SECONDS);
            }
            acceptLargeRecords(sink, sink.correctionsTopic());
            Workload workload = largeRowThenSmallOnes(sink, producer);
            List<ConsumerRecord<byte[], byte[]>> dead = sink.deadLetters(1);
            assertEquals(1, dead.size());
            assertEquals("oversized-row", SinkHarness.header(dead.get(0), "mvsink.dlq.reason"));
            String detail = SinkHarness.header(dead.get(0), "mvsink.dlq.detail");
            assertTrue(detail.contains("max.message.bytes"), detail);
            // the topic model would hold the large row: the workload's own model is the reference here
            assertEquals(SinkHarness.snapshotOf(workload), sink.snapshot(sink.state()));
            sink.assertEveryAppendIsAnExactCover();
        }
    }

    /** A bad record of 2 MB goes to the dead-letter topic whole (the topic takes what the producer sends). */
    @Test
    void shouldDeadLetterALargeBadRecordWholeWhenTheProducerMayWriteIt(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, raised());
             CorrectionProducer producer = largeProducer(sink);
             KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(Map.of("bootstrap.servers",
                 stack.bootstrapServers(), "max.request.size", LIMIT + 64 * 1024),
                 new ByteArraySerializer(), new ByteArraySerializer())) {
            acceptLargeRecords(sink, sink.correctionsTopic());
            MvsinkApp app = sink.startApp(1);
            byte[] notAvro = new byte[LARGE];
            Arrays.fill(notAvro, (byte) '{');
            raw.send(new ProducerRecord<>(sink.correctionsTopic(), 0, 1_000L,
                "big".getBytes(StandardCharsets.UTF_8), notAvro)).get(30, TimeUnit.SECONDS);
            producer.update("small", row(1, 10), 2_000, 1);
            producer.progress(5_000);
            producer.flush();

            sink.awaitUpperWhileRunning(app, 5_000, Duration.ofSeconds(90));
            List<ConsumerRecord<byte[], byte[]>> dead = sink.deadLetters(1);
            assertEquals(1, dead.size());
            assertEquals("bad-magic", SinkHarness.header(dead.get(0), "mvsink.dlq.reason"));
            assertArrayEquals(notAvro, dead.get(0).value(), "the bad record's value is kept whole");
            assertEquals(Map.of(GenericData.get().toString(row(1, 10)), 1L), sink.snapshot(sink.state()));
        }
    }

    /** Starts an app, then sends the large row, 100 small updates after it and progress to 5,000; waits for that seal. */
    private static Workload largeRowThenSmallOnes(SinkHarness sink, CorrectionProducer producer) {
        MvsinkApp app = sink.startApp(1);
        producer.update("large", row(0, LARGE), 1_000, 1);
        return sink.sealSmallUpdatesAfter(app, producer, Duration.ofSeconds(90));
    }

    private static CorrectionProducer largeProducer(SinkHarness sink) {
        Map<String, Object> props = new HashMap<>(sink.clientProps());
        props.put("max.request.size", LIMIT + 64 * 1024);
        return new CorrectionProducer(props, sink.correctionsTopic(), sink.rowSubject, sink.registry);
    }

    private static void acceptLargeRecords(SinkHarness sink, String topic) throws Exception {
        try (Admin admin = Admin.create(sink.clientProps())) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    Integer.toString(2 * LIMIT)), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static GenericRecord row(long id, int padding) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", "x".repeat(padding));
        row.put("amount", id);
        return row;
    }
}
