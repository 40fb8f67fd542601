package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.it.SinkHarness.RowSchema;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.registry.RawRegistration;
import io.mvsink.registry.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shard's rows' subject follows the producer's naming strategy (DESIGN.md section 3): a
 * producer with Confluent's RecordNameStrategy registers its {@code .avsc} text under the record's
 * full name, and writes its rows with that id. An app configured with that strategy seals them
 * all; the same app with the default strategy (subject {@code <topic>-value}) dead-letters them,
 * naming the subject it looked in.
 */
@ExtendWith(LocalStackExtension.class)
class SubjectNamingIT {
    private static final int ROWS = 30;
    private static final long UPPER = 3_000;

    @Test
    void shouldSealRowsRegisteredUnderTheRecordNameOnlyWithRecordNameStrategy(LocalStack stack) throws Exception {
        String namespace = "it.subjects.n" + UUID.randomUUID().toString().substring(0, 8);
        String recordName = namespace + ".Row";
        Properties byRecord = new Properties();
        byRecord.put(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, "io.confluent.kafka.serializers.subject.RecordNameStrategy");
        byRecord.put(MvsinkConfig.ROW_RECORD_NAME, recordName);
        try (SinkHarness sink = new SinkHarness(stack, 2, byRecord, RowSchema.LEFT_TO_THE_TEST);
             SinkHarness byTopic = new SinkHarness(sink, new Properties(), RowSchema.LEFT_TO_THE_TEST)) {
            assertEquals(recordName, sink.rowSubject);
            assertEquals(sink.correctionsTopic() + "-value", byTopic.rowSubject);
            int id = RawRegistration.registerText(URI.create(stack.registryUrl()), recordName, avsc(namespace));
            MvsinkApp app = sink.startApp(1);
            MvsinkApp topicNamed = byTopic.startApp(1);

            Map<String, Long> expected = produce(sink, id, new Schema.Parser().parse(avsc(namespace)));

            assertEquals(expected, sink.assertSealedExactly(UPPER), "the record-named shard holds every row");
            assertEquals(0, app.metrics().deadLetteredCount(), "nothing dead-lettered");

            byTopic.awaitUpper(UPPER);
            List<ConsumerRecord<byte[], byte[]>> dead = byTopic.deadLetters(ROWS + ROWS / 3);
            assertEquals(ROWS + ROWS / 3, dead.size(), "every update of the topic-named shard is dead-lettered");
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                assertEquals("incompatible-schema", SinkHarness.header(r, "mvsink.dlq.reason"));
                String detail = SinkHarness.header(r, "mvsink.dlq.detail");
                assertTrue(detail.contains(byTopic.rowSubject) && detail.contains(Integer.toString(id)), detail);
            }
            assertEquals(ROWS + ROWS / 3, topicNamed.metrics().deadLetteredCount());
        }
    }

    /** An {@code .avsc} file as written by hand: several lines, docs, its own attribute order. */
    private static String avsc(String namespace) {
        return """
            {
              "type": "record",
              "name": "Row",
              "namespace": "%s",
              "doc": "one row of the view, registered by a producer in another language",
              "fields": [
                { "name": "id", "type": "long" },
                { "type": "string", "name": "category", "doc": "the row's group" },
                { "name": "amount", "type": "long" }
              ]
            }
            """.formatted(namespace);
    }

    /**
     * Writes as a third-party producer would, with a plain Kafka producer: {@link #ROWS} inserts
     * and the retraction of every third, in wire format with schema id {@code id}, then progress
     * at {@link #UPPER} to every partition. Returns the rows' net counts.
     */
    private static Map<String, Long> produce(SinkHarness sink, int id, Schema schema) throws Exception {
        Map<String, Long> net = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer =
                 new KafkaProducer<>(sink.clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < ROWS; i++) {
                GenericRecord row = row(schema, i);
                send(producer, sink, row, id, 1_000 + i * 10L, 1);
                net.merge(GenericData.get().toString(row), 1L, Long::sum);
                if (i % 3 == 0) {
                    send(producer, sink, row, id, 2_000 + i * 10L, -1);
                    net.merge(GenericData.get().toString(row), -1L, Long::sum);
                }
            }
            for (int p = 0; p < sink.partitions; p++) {
                RecordHeaders upper = new RecordHeaders();
                upper.add("mvsink.upper", Long.toString(UPPER).getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(sink.correctionsTopic(), p, UPPER, null, null, upper));
            }
            producer.flush();
        }
        net.values().removeIf(c -> c == 0);
        return net;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, SinkHarness sink, GenericRecord row, int id,
                             long time, long diff) throws Exception {
        RecordHeaders headers = new RecordHeaders();
        headers.add("mvsink.diff", Long.toString(diff).getBytes(StandardCharsets.UTF_8));
        byte[] key = row.get("id").toString().getBytes(StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(sink.correctionsTopic(), null, time, key, WireFormat.encode(id, avro(row)),
            headers)).get(30, TimeUnit.SECONDS);
    }

    private static GenericRecord row(Schema schema, long i) {
        GenericRecord row = new GenericData.Record(schema);
        row.put("id", i);
        row.put("category", "c" + i % 4);
        row.put("amount", i * 7);
        return row;
    }

    private static byte[] avro(GenericRecord row) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(row.getSchema()).write(row, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
