package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardJmx;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.WireFormat;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
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
    private static MvsinkApp app;
    private static final int BAD_RECORDS = 11;
    private static long startedAtMs;

    @BeforeAll
    static void produceGoodAndBadRecords(LocalStack stack) throws Exception {
        startedAtMs = System.currentTimeMillis();
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.MAX_ROW_BYTES, "200");
        sink = new SinkHarness(stack, 2, overrides);
        app = sink.startApp(1);
        Workload workload = new Workload(21, 50, 0.3);
        AvroRowCodec rows = new AvroRowCodec(sink.registry, sink.rowSubject);
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
            send(raw, foreignRow(), t + 307, null, null);
            send(raw, rows.serialize(bigRow()), t + 308, null, null);
            send(raw, goodValue, -1, null, null);
            send(raw, null, t + 309, "mvsink.upper", "8000");
            send(raw, null, t + 310, "mvsink.upper", "7000");
            raw.flush();
            producer.progress(10_000);
            producer.flush();
        }
        for (Map.Entry<GenericData.Record, Long> e : modelOf(workload).entrySet()) {
            MODEL.put(GenericData.get().toString(e.getKey()), e.getValue());
        }
        sealed = sink.awaitUpper(10_000);
        readDeadLetters(BAD_RECORDS);
    }

    /** A row whose schema (registered under another subject) the shard's schema cannot read. */
    private static byte[] foreignRow() {
        Schema foreign = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredString("id").endRecord();
        GenericData.Record row = new GenericData.Record(foreign);
        row.put("id", "not a long");
        return new AvroRowCodec(sink.registry, sink.name + "-other-value").serialize(row);
    }

    /** A well-formed row larger than max.row.bytes (200). */
    private static GenericData.Record bigRow() {
        GenericData.Record row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", 1L);
        row.put("category", "x".repeat(300));
        row.put("amount", 1L);
        return row;
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

    /** Sends to partition 0, so that the good records of partition 1 go on being sealed beside them. */
    private static void send(KafkaProducer<byte[], byte[]> raw, byte[] value, long time, String header, String text)
            throws Exception {
        RecordHeaders headers = new RecordHeaders();
        if (header != null) {
            headers.add(header, text.getBytes(StandardCharsets.UTF_8));
        }
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(sink.correctionsTopic(), 0, Math.max(0, time),
            "k".getBytes(StandardCharsets.UTF_8), value, headers);
        if (time == -1) {
            // The producer API refuses -1, but the record format has "no timestamp" (-1), which older
            // or foreign clients write and brokers keep; the client's own check is bypassed to send one.
            Field timestamp = ProducerRecord.class.getDeclaredField("timestamp");
            timestamp.setAccessible(true);
            timestamp.set(record, -1L);
        }
        raw.send(record).get(30, TimeUnit.SECONDS);
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
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (all.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
            // fewer than expected: the tests of the missing reasons fail and name them
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
    void shouldDeadLetterASchemaTheShardsSchemaCannotRead() {
        ConsumerRecord<byte[], byte[]> r = deadLettered("incompatible-schema");
        assertTrue(header(r, "mvsink.dlq.detail").contains(sink.correctionsTopic() + "-value"));
    }

    @Test
    void shouldDeadLetterAnOversizedRow() {
        assertTrue(header(deadLettered("oversized-row"), "mvsink.dlq.detail").contains("max.row.bytes 200"));
    }

    @Test
    void shouldDeadLetterAnUpdateWithoutATimestamp() {
        ConsumerRecord<byte[], byte[]> r = deadLettered("bad-timestamp");
        assertArrayEquals(goodValue, r.value());
        assertEquals("-1", header(r, "mvsink.invalid-timestamp"));
    }

    @Test
    void shouldStampADeadLetterWithTheTimeItWasSentAndKeepTheUpdateTime() {
        // the broker's time-based retention counts from record timestamps: one stamped with the
        // update's time (5300 ms after the epoch) would be deleted at its next retention check
        ConsumerRecord<byte[], byte[]> r = deadLettered("bad-magic");
        assertTrue(r.timestamp() >= startedAtMs, "stamped " + r.timestamp() + ", run started " + startedAtMs);
        assertEquals("5300", header(r, "mvsink.dlq.timestamp"));
    }

    @Test
    void shouldDeadLetterProgressThatMovesTheFrontierBackwards() {
        assertEquals("7000", header(deadLettered("frontier-regressed"), "mvsink.upper"));
    }

    @Test
    void shouldCountEveryReasonOnItsOwnOverJmx() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName shard = ShardJmx.objectName(sink.correctionsTopic());
        for (Map.Entry<String, List<ConsumerRecord<byte[], byte[]>>> e : DEAD.entrySet()) {
            assertEquals((double) e.getValue().size(), server.getAttribute(shard, ShardMetricSet.deadLetterCounter(e.getKey())),
                e.getKey());
        }
        assertEquals((double) BAD_RECORDS, server.getAttribute(shard, "dead-lettered-records-total"));
        assertEquals(0.0, server.getAttribute(shard, ShardMetricSet.deadLetterCounter("too-short")));
    }

    @Test
    void shouldSealEveryGoodRecordBesideTheBadOnes() {
        assertEquals(MODEL, sink.snapshot(sealed));
        sink.assertEveryAppendIsAnExactCover();
        assertEquals(BAD_RECORDS, DEAD.values().stream().mapToInt(List::size).sum(), "exactly the bad records");
        assertEquals(BAD_RECORDS, app.metrics().deadLetteredCount());
    }
}
