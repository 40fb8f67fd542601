package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.batch.PartEncoder;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.RegistryRequestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The row schema evolves mid-stream on the real stack: rows inserted under v1 and retracted under
 * a backward-compatible v2 cancel in the snapshot, which reads every part into the latest
 * version; an incompatible version is refused by the registry, and rows of an incompatible
 * schema are dead-lettered while the shard goes on sealing.
 */
@ExtendWith(LocalStackExtension.class)
class SchemaEvolutionIT {
    /** v1 and a field with a default: BACKWARD compatible (v2 reads v1). */
    static final Schema V2 = io.mvsink.batch.TestUpdates.ROW_V2;
    /** {@code amount} turned into a string: v3 cannot read v2. */
    static final Schema V3 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredString("amount")
        .name("region").type().stringType().stringDefault("none").endRecord();

    @Test
    void shouldReadEveryVersionIntoTheLatestAndKeepIncompatibleRowsOut(LocalStack stack) throws Exception {
        // parts are checked as sealed: compaction would rewrite them into the latest schema (BatchMergerTest)
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.COMPACTION_ENABLED, "false");
        try (SinkHarness sink = new SinkHarness(stack, 2, overrides);
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(2);
            String subject = sink.rowSubject;
            int v1 = sink.registry.latest(subject).id();

            // v1: ids 0..39 inserted, then sealed
            for (int id = 0; id < 40; id++) {
                producer.update(key(id), v1Row(id), 1_000 + id * 10, 1 + id % 2);
            }
            producer.progress(3_000);
            producer.flush();
            sink.awaitUpper(3_000);

            // v2 registered (BACKWARD, as the harness set the subject); mid-stream: v2 retracts v1 rows
            // 0..9 (their v2 form has the default), inserts new v2 rows, and an older producer goes on
            // writing v1 rows, one of which v2 retracts in the same interval
            assertEquals("BACKWARD", sink.registry.compatibility(subject));
            int v2 = sink.registry.register(subject, V2);
            for (int id = 0; id < 10; id++) {
                producer.update(key(id), v2Row(id, "none"), 3_000 + id * 10, -(1 + id % 2));
            }
            for (int id = 40; id < 60; id++) {
                producer.update(key(id), v2Row(id, id % 3 == 0 ? "none" : "eu"), 3_200 + id * 10, 1);
            }
            producer.update(key(60), v1Row(60), 4_000, 1);
            producer.update(key(61), v1Row(61), 4_010, 1);
            producer.update(key(61), v2Row(61, "none"), 4_020, -1);
            producer.progress(5_000);
            producer.flush();
            ShardState state = sink.awaitUpper(5_000);

            assertPartsCarryTheirWriterIds(sink, state, v1, v2);
            Map<String, Long> snapshot = sink.snapshot(state);
            assertEquals(TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry, state.upper()),
                snapshot);
            for (int id = 0; id < 10; id++) {
                assertFalse(snapshot.containsKey(json(v2Row(id, "none"))), "v1 insert, v2 retraction: gone, id " + id);
            }
            assertFalse(snapshot.containsKey(json(v2Row(61, "none"))));
            assertEquals(2L, snapshot.get(json(v2Row(11, "none"))), "a v1 row reads with v2's default");
            assertEquals(1L, snapshot.get(json(v2Row(41, "eu"))));
            assertEquals(1L, snapshot.get(json(v2Row(60, "none"))));
            assertEquals(30 + 20 + 1, snapshot.size());

            // v3 cannot read v2: the registry refuses it under the subject, and the latest stays v2
            RegistryRequestException refused = assertThrows(RegistryRequestException.class,
                () -> sink.registry.register(subject, V3));
            assertEquals(409, refused.status(), refused.getMessage());
            assertEquals(v2, sink.registry.latest(subject).id());

            // a v3 row registered under another subject reaches the topic anyway: it is dead-lettered,
            // and the shard goes on sealing the good rows beside it
            byte[] foreign = new AvroRowCodec(sink.registry, sink.name + "-other-value").serialize(v3Row(70));
            sendRaw(sink, foreign, 5_100);
            for (int id = 80; id < 90; id++) {
                producer.update(key(id), v2Row(id, "eu"), 5_200 + id * 10, 1);
            }
            producer.progress(7_000);
            producer.flush();
            state = sink.awaitUpper(7_000);

            List<ConsumerRecord<byte[], byte[]>> dead = sink.deadLetters(1);
            assertEquals(1, dead.size());
            assertEquals("incompatible-schema", SinkHarness.header(dead.get(0), "mvsink.dlq.reason"));
            assertTrue(SinkHarness.header(dead.get(0), "mvsink.dlq.detail").contains(subject), SinkHarness.header(dead.get(0), "mvsink.dlq.detail"));
            assertArrayEquals(foreign, dead.get(0).value(), "the refused row, as sent");
            assertEquals(1L, app.metrics().deadLetteredCount());

            snapshot = sink.snapshot(state);
            assertEquals(TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry, state.upper()),
                snapshot);
            assertEquals(30 + 20 + 1 + 10, snapshot.size());
            sink.assertEveryAppendIsAnExactCover();
            assertEquals(0, sink.orphanedBatches());
        }
    }

    /** Parts of the v1-only intervals carry v1; later parts carry v1 or v2, and v2 appears. */
    private static void assertPartsCarryTheirWriterIds(SinkHarness sink, ShardState state, int v1, int v2) {
        Set<Integer> later = new HashSet<>();
        for (Batch batch : state.batches()) {
            for (Part part : batch.getParts()) {
                assertEquals(Integer.toString(part.getSchemaId()), metaSchemaId(sink.blobs.get(part.getKey())),
                    "part " + part.getKey() + " metadata");
                if (batch.getUpper() <= 3_000) {
                    assertEquals(v1, part.getSchemaId(), "part " + part.getKey() + " of a v1-only interval");
                } else {
                    later.add(part.getSchemaId());
                }
                assertTrue(batch.getSchemaIds().contains(part.getSchemaId()), "the batch lists its parts' ids");
            }
        }
        assertEquals(Set.of(v1, v2), later, "after v2: parts of both versions");
    }

    private static String metaSchemaId(byte[] part) {
        try (DataFileReader<GenericRecord> reader =
                 new DataFileReader<>(new SeekableByteArrayInput(part), new GenericDatumReader<>())) {
            return reader.getMetaString(PartEncoder.META_SCHEMA_ID);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sendRaw(SinkHarness sink, byte[] value, long time) throws Exception {
        try (KafkaProducer<byte[], byte[]> raw =
                 new KafkaProducer<>(sink.clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(sink.correctionsTopic(), 0, time, key(70).getBytes(StandardCharsets.UTF_8),
                value, new RecordHeaders())).get(30, TimeUnit.SECONDS);
        }
    }

    private static String key(int id) {
        return Integer.toString(id);
    }

    static GenericRecord v1Row(long id) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", "c" + id % 5);
        row.put("amount", id * 3);
        return row;
    }

    static GenericRecord v2Row(long id, String region) {
        GenericRecord row = new GenericData.Record(V2);
        row.put("id", id);
        row.put("category", "c" + id % 5);
        row.put("amount", id * 3);
        row.put("region", region);
        return row;
    }

    private static GenericRecord v3Row(long id) {
        GenericRecord row = new GenericData.Record(V3);
        row.put("id", id);
        row.put("category", "c" + id % 5);
        row.put("amount", "three");
        row.put("region", "eu");
        return row;
    }

    private static String json(GenericRecord row) {
        return GenericData.get().toString(row);
    }
}
