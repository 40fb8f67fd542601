package io.mvsink.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.read.SnapshotReader;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.registry.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the corrections input through the whole topology (TopologyTestDriver, in-memory
 * registry and blobs): 100,000 records, a third of them good updates and progress, the rest
 * random bytes or good records mutated in value, headers and timestamp. Nothing may throw out of
 * the processor; every good record is sealed; every other record is either dead-lettered or,
 * when the mutation happened to leave a valid update, sealed as that update, never both and
 * never neither. Seeded: {@code -Dmvsink.fuzz.seed=N} replays a run.
 */
class InputFuzzTest {
    private static final int RECORDS = Integer.getInteger("mvsink.fuzz.records", 100_000);
    private static final int MAX_ROW_BYTES = 1024;
    private static final String SUBJECT = "c-value";

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final ShardMetrics metrics = new ShardMetrics("s");
    private final AvroRowCodec rows = new AvroRowCodec(registry, SUBJECT);
    private BatchCoalescer batches;
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> corrections;

    @BeforeEach
    void start() {
        batches = TestCoalescer.of(CoalescingMode.NONE).blobs(blobs).schemas(registry)
            .settings(s -> s.withMaxQueuedBytes(64L << 20)).shard(TestCoalescer.sink("s", metrics)).build();
        SinkContext sink = new SinkContext(SinkSettings.of("s", SUBJECT).withPunctuate(Duration.ofMillis(10))
            .withRecontribute(Duration.ofMinutes(10)).withMaxRowBytes(MAX_ROW_BYTES), Time.SYSTEM, metrics, batches, registry);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "fuzz");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(SinkTopology.build(new SinkTopology.Topics("c", "r", "k", "d"), sink), props);
        corrections = driver.createInputTopic("c", new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void stop() {
        driver.close();
        batches.close();
    }

    @Test
    void shouldNeverThrowNorLoseAGoodRecord() {
        long seed = Long.getLong("mvsink.fuzz.seed", System.nanoTime());
        Fuzzer fuzzer = new Fuzzer(new Random(seed));
        Map<Long, Input> sent = new HashMap<>();
        Set<Long> good = new HashSet<>();
        for (long offset = 0; offset < RECORDS; offset++) {
            Input input = fuzzer.next();
            sent.put(offset, input);
            if (input.good()) {
                good.add(offset);
            }
            corrections.pipeInput(input.record());
        }
        long upper = (fuzzer.frontier / 1_000 + 1_000) * 1_000;  // on the interval grid, above every time
        corrections.pipeInput(progress(upper, fuzzer.frontier));

        ShardState state = awaitSealed(upper);
        Map<Long, String> dead = deadLetteredOffsets();
        Set<Long> goodButDead = new HashSet<>(good);
        goodButDead.retainAll(dead.keySet());
        assertEquals(Set.of(), goodButDead, "good records dead-lettered (seed " + seed + ")");

        Map<String, Long> expected = new TreeMap<>();
        int acceptedMutants = 0;
        for (Map.Entry<Long, Input> e : sent.entrySet()) {
            Input input = e.getValue();
            if (dead.containsKey(e.getKey())) {
                continue;
            }
            if (input.value() == null) {
                assertTrue(input.good(), "bad progress at offset " + e.getKey() + " taken (seed " + seed + ")");
                continue;
            }
            acceptedMutants += input.good() ? 0 : 1;
            String row = GenericData.get().toString(inLatestSchema(input.value()));
            expected.merge(row, input.diff(), Long::sum);
        }
        expected.values().removeIf(count -> count == 0);
        assertEquals(expected, new SnapshotReader(blobs, registry, SUBJECT).read(state, upper - 1),
            "sealed = every record that was not dead-lettered (seed " + seed + ")");
        assertEquals(dead.size(), metrics.deadLetteredCount(), "every dead letter counted");
        assertTrue(good.size() > RECORDS / 4, "a real share of good records: " + good.size());
        assertTrue(dead.size() > RECORDS / 2, "a real share of bad records: " + dead.size());
        System.out.printf("input fuzz (seed %d): %d records, %d good, %d dead-lettered over %d reasons, "
            + "%d mutants that stayed valid and were sealed%n", seed, RECORDS, good.size(), dead.size(),
            new HashSet<>(dead.values()).size(), acceptedMutants);
    }

    /** Offset to reason of every dead-lettered record. */
    private Map<Long, String> deadLetteredOffsets() {
        TestOutputTopic<byte[], byte[]> dead = driver.createOutputTopic("d", new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        Map<Long, String> offsets = new HashMap<>();
        for (TestRecord<byte[], byte[]> r : dead.readRecordsToList()) {
            long offset = Long.parseLong(text(r.headers().lastHeader(DeadLetters.OFFSET)));
            String previous = offsets.put(offset, text(r.headers().lastHeader(DeadLetters.REASON)));
            assertEquals(null, previous, "offset " + offset + " dead-lettered twice");
        }
        return offsets;
    }

    private ShardState awaitSealed(long upper) {
        TestOutputTopic<byte[], byte[]> consensus = driver.createOutputTopic("k", new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        ShardState state = new ShardState("s");
        await().atMost(Duration.ofSeconds(60)).alias("sealed at " + upper + " (" + metrics.contributions()
            + " contributions)").until(() -> {
            driver.advanceWallClockTime(Duration.ofMillis(20));
            for (var record : consensus.readRecordsToList()) {
                // rollups and the tombstones they bring only restate what the diffs said
                if (record.value() != null && ConsensusKeys.isDiff(new String(record.key(), StandardCharsets.UTF_8))) {
                    state.apply(Codecs.STATE_DIFF.decode(record.value()));
                }
            }
            return state.upper() >= upper;
        });
        return state;
    }

    private static TestRecord<byte[], byte[]> progress(long upper, long time) {
        Headers headers = new RecordHeaders().add(InputDecoder.UPPER_HEADER,
            Long.toString(upper).getBytes(StandardCharsets.UTF_8));
        return new TestRecord<>(null, null, headers, Instant.ofEpochMilli(time));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String text(Header header) {
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    /** One input record and what it was made as. */
    private record Input(TestRecord<byte[], byte[]> record, boolean good) {
        byte[] value() {
            return record.value();
        }

        long diff() {
            Header header = record.headers().lastHeader(InputDecoder.DIFF_HEADER);
            return header == null ? 1 : Long.parseLong(new String(header.value(), StandardCharsets.UTF_8).trim());
        }
    }

    /** The row of a wire-format value read into the subject's latest schema, as the snapshot reads it. */
    private GenericRecord inLatestSchema(byte[] value) {
        Schema writer = registry.schemaById(WireFormat.schemaId(value));
        GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writer, registry.latest(SUBJECT).schema());
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(value, WireFormat.HEADER_SIZE,
                value.length - WireFormat.HEADER_SIZE, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Good records (updates of two compatible schema versions, progress) and their mutations. */
    private final class Fuzzer {
        private final Random random;
        private final Workload workload;
        private final Schema v2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredLong("id").requiredString("category").requiredLong("amount")
            .name("note").type().stringType().stringDefault("").endRecord();
        private final int foreignId;
        private long frontier;

        Fuzzer(Random random) {
            this.random = random;
            this.workload = new Workload(random.nextLong(), 200, 0.3);
            rows.schemaId(Workload.ROW_SCHEMA);
            rows.schemaId(v2);
            this.foreignId = new AvroRowCodec(registry, "foreign-value")
                .schemaId(SchemaBuilder.record("Row").fields().requiredString("id").endRecord());
        }

        Input next() {
            int kind = random.nextInt(100);
            if (kind < 25) {
                return new Input(goodUpdate(), true);
            }
            if (kind < 33) {
                frontier += random.nextInt(1_500);
                return new Input(progress(frontier, frontier), true);
            }
            if (kind < 40) {
                return new Input(badProgress(), false);
            }
            if (kind < 50) {
                return new Input(new TestRecord<>(randomBytes(8), randomBytes(random.nextInt(300)),
                    new RecordHeaders(), Instant.ofEpochMilli(time())), false);
            }
            return new Input(mutate(goodUpdate()), false);
        }

        private TestRecord<byte[], byte[]> goodUpdate() {
            Workload.Correction c = workload.next();
            GenericRecord row = c.row();
            if (random.nextInt(4) == 0) {
                GenericRecord newer = new GenericData.Record(v2);
                for (Schema.Field field : row.getSchema().getFields()) {
                    newer.put(field.name(), row.get(field.name()));
                }
                newer.put("note", "n" + random.nextInt(3));
                row = newer;
            }
            Headers headers = new RecordHeaders();
            if (c.diff() != 1 || random.nextBoolean()) {
                headers.add(InputDecoder.DIFF_HEADER, Long.toString(c.diff()).getBytes(StandardCharsets.UTF_8));
            }
            return new TestRecord<>(c.key().getBytes(StandardCharsets.UTF_8), rows.serialize(row), headers, Instant.ofEpochMilli(time()));
        }

        /** Some below the frontier (late: advanced, still sealed), most around it. */
        private long time() {
            return Math.max(0, frontier - 2_000 + random.nextInt(6_000));
        }

        private TestRecord<byte[], byte[]> badProgress() {
            Headers headers = new RecordHeaders();
            switch (random.nextInt(5)) {
                case 0 -> { }
                case 1 -> headers.add(InputDecoder.UPPER_HEADER, randomText());
                case 2 -> headers.add(InputDecoder.UPPER_HEADER,
                    Long.toString(-1 - random.nextInt(1000)).getBytes(StandardCharsets.UTF_8));
                case 3 -> headers.add(InputDecoder.UPPER_HEADER, null);
                default -> headers.add(InputDecoder.UPPER_HEADER,
                    Long.toString(frontier - 1 - random.nextInt(1000)).getBytes(StandardCharsets.UTF_8));
            }
            if (frontier == 0 && headers.lastHeader(InputDecoder.UPPER_HEADER) != null) {
                headers = new RecordHeaders();
            }
            return new TestRecord<>(null, null, headers, Instant.ofEpochMilli(time()));
        }

        private TestRecord<byte[], byte[]> mutate(TestRecord<byte[], byte[]> record) {
            byte[] value = record.value().clone();
            Headers headers = new RecordHeaders(record.headers().toArray());
            long time = record.timestamp();
            switch (random.nextInt(12)) {
                case 0 -> value[random.nextInt(value.length)] ^= (byte) (1 << random.nextInt(8));
                case 1 -> value = Arrays.copyOf(value, random.nextInt(value.length));
                case 2 -> value = concat(value, randomBytes(1 + random.nextInt(8)));
                case 3 -> value[0] = (byte) (1 + random.nextInt(255));
                case 4 -> value = WireFormat.encode(random.nextBoolean() ? foreignId : 1_000 + random.nextInt(1 << 20),
                    Arrays.copyOfRange(value, WireFormat.HEADER_SIZE, value.length));
                case 5 -> value = concat(value, new byte[MAX_ROW_BYTES]);
                case 6 -> headers.add(InputDecoder.DIFF_HEADER, randomText());
                case 7 -> headers.add(InputDecoder.DIFF_HEADER, random.nextBoolean()
                    ? "99999999999999999999".getBytes(StandardCharsets.UTF_8) : null);
                case 8 -> headers.add(InputDecoder.UPPER_HEADER,
                    Long.toString(frontier + 10).getBytes(StandardCharsets.UTF_8));
                case 9 -> time = -1 - random.nextInt(1000);
                case 10 -> {
                    // valid however odd: the record stays good in all but name
                    String[] odd = {"+5", " 7 ", "0", "-1000000000000", "1000000000000"};
                    headers.add(InputDecoder.DIFF_HEADER, odd[random.nextInt(odd.length)].getBytes(StandardCharsets.UTF_8));
                }
                default -> {
                    for (int i = 0; i < 1 + random.nextInt(4); i++) {
                        value[random.nextInt(value.length)] = (byte) random.nextInt(256);
                    }
                }
            }
            return new TestRecord<>(record.key(), value, headers, Instant.ofEpochMilli(time));
        }

        private byte[] randomBytes(int n) {
            byte[] bytes = new byte[n];
            random.nextBytes(bytes);
            return bytes;
        }

        private byte[] randomText() {
            String[] samples = {"", " ", "one", "1.5", "0x10", "--1", "+", "1e3", "\u0000", "9".repeat(40)};
            return samples[random.nextInt(samples.length)].getBytes(StandardCharsets.UTF_8);
        }
    }
}
