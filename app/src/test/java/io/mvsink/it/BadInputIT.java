package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.WireFormat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input interleaved with a good workload: every bad record lands on the dead-letter topic
 * with its reason and origin, and every good one is sealed.
 */
@ExtendWith(LocalStackExtension.class)
class BadInputIT {
    private static SinkHarness sink;
    private static ShardState sealed;
    private static final Map<String, Long> MODEL = new TreeMap<>();
    private static final Map<String, List<ConsumerRecord<byte[], byte[]>>> DEAD = new HashMap<>();
    private static byte[] goodValue;

    @BeforeAll
    static void produceGoodAndBadRecords(LocalStack stack) throws Exception {
        sink = new SinkHarness(stack, 2, new Properties());
        sink.startApp(1);
        Workload workload = new Workload(21, 50, 0.3);
        AvroRowCodec rows = new AvroRowCodec(sink.registry, sink.correctionsTopic() + "-value");
        try (CorrectionProducer producer = sink.producer();
             KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(sink.clientProps(),
                 new ByteArraySerializer(), new ByteArraySerializer())) {
            long t = 5_000;
            for (int i = 0; i < 200; i++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), c.row(), t + i, c.diff());
            }
            producer.flush();
            goodValue = rows.serialize(workload.next().row());
            workload = replay(21, 200);
            int id = WireFormat.schemaId(goodValue);
            byte[] wrongMagic = goodValue.clone();
            wrongMagic[0] = 7;
            byte[] truncated = Arrays.copyOf(goodValue, goodValue.length - 3);
            byte[] unknownId = WireFormat.encode(id + 100_000, Arrays.copyOfRange(goodValue, 5, goodValue.length));
            send(raw, wrongMagic, t + 300, "mvsink.diff", "1");
            send(raw, truncated, t + 301, "mvsink.diff", "1");
            send(raw, unknownId, t + 302, "mvsink.diff", "1");
            send(raw, goodValue, t + 303, "mvsink.diff", "one");
            send(raw, goodValue, t + 304, "mvsink.diff", "99999999999999999999");
            send(raw, null, t + 305, "mvsink.upper", "soon");
            send(raw, null, t + 306, null, null);
            raw.flush();
            producer.progress(10_000);
            producer.flush();
        }
        for (Map.Entry<GenericData.Record, Long> e : modelOf(workload).entrySet()) {
            MODEL.put(GenericData.get().toString(e.getKey()), e.getValue());
        }
        sealed = sink.awaitUpper(10_000);
        readDeadLetters(7);
    }

    /** The model of the first {@code n} corrections of the seeded workload. */
    private static Workload replay(long seed, int n) {
        Workload w = new Workload(seed, 50, 0.3);
        for (int i = 0; i < n; i++) {
            w.next();
        }
        return w;
    }

    private static Map<GenericData.Record, Long> modelOf(Workload w) {
        Map<GenericData.Record, Long> m = new HashMap<>();
        w.model().forEach((row, count) -> m.put((GenericData.Record) row, count));
        return m;
    }

    private static void send(KafkaProducer<byte[], byte[]> raw, byte[] value, long time, String header, String text) {
        RecordHeaders headers = new RecordHeaders();
        if (header != null) {
            headers.add(header, text.getBytes(StandardCharsets.UTF_8));
        }
        // partition 0, so that the good records of partition 1 go on being sealed beside them
        raw.send(new ProducerRecord<>(sink.correctionsTopic(), 0, time, "k".getBytes(StandardCharsets.UTF_8),
            value, headers));
    }

    private static void readDeadLetters(int expected) {
        Map<String, Object> props = new HashMap<>(sink.clientProps());
        props.put("isolation.level", "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(sink.name + "-dead-letter", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                return all.size() >= expected;
            });
            for (ConsumerRecord<byte[], byte[]> r : all) {
                DEAD.computeIfAbsent(header(r, "mvsink.dlq.reason"), k -> new ArrayList<>()).add(r);
            }
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() {
        if (sink != null) {
            sink.close();
        }
    }

    private static ConsumerRecord<byte[], byte[]> deadLettered(String reason) {
        List<ConsumerRecord<byte[], byte[]>> records = DEAD.get(reason);
        assertNotNull(records, "a record dead-lettered with reason " + reason + " (got " + DEAD.keySet() + ")");
        assertEquals(1, records.size(), reason);
        ConsumerRecord<byte[], byte[]> r = records.get(0);
        assertEquals(sink.correctionsTopic(), header(r, "mvsink.dlq.topic"));
        assertEquals("0", header(r, "mvsink.dlq.partition"));
        assertNotNull(header(r, "mvsink.dlq.offset"));
        assertNotNull(header(r, "mvsink.dlq.detail"));
        return r;
    }

    @Test
    void shouldDeadLetterAWrongMagicByte() {
        assertEquals(7, deadLettered("bad-magic").value()[0]);
    }

    @Test
    void shouldDeadLetterATruncatedRow() {
        assertEquals(goodValue.length - 3, deadLettered("undecodable").value().length);
    }

    @Test
    void shouldDeadLetterAnUnknownSchemaId() {
        assertEquals(WireFormat.schemaId(goodValue) + 100_000, WireFormat.schemaId(deadLettered("unknown-schema").value()));
    }

    @Test
    void shouldDeadLetterMalformedDiffHeaders() {
        List<ConsumerRecord<byte[], byte[]>> records = DEAD.get("bad-diff");
        assertNotNull(records);
        assertEquals(2, records.size(), "a non-number and an overflowing diff");
        records.forEach(r -> assertArrayEquals(goodValue, r.value()));
    }

    @Test
    void shouldDeadLetterMalformedOrMissingUpperHeaders() {
        assertEquals("soon", header(deadLettered("bad-upper"), "mvsink.upper"));
        deadLettered("missing-upper");
    }

    @Test
    void shouldSealEveryGoodRecordBesideTheBadOnes() {
        assertEquals(MODEL, sink.snapshot(sealed));
        sink.assertEveryAppendIsAnExactCover();
        assertEquals(7, DEAD.values().stream().mapToInt(List::size).sum(), "exactly the bad records");
    }
}
