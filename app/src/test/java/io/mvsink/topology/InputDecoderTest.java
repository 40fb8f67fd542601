package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.produce.Workload;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.registry.RegistryUnavailableException;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import io.mvsink.registry.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class InputDecoderTest {
    private static final String SUBJECT = "corrections-value";
    private static final int MAX_ROW_BYTES = 64;

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroRowCodec rows = new AvroRowCodec(registry, SUBJECT);
    private final MockTime time = new MockTime();
    private final KeyValueStore<Integer, byte[]> decisions = TestStores.inMemory("decisions", Serdes.Integer());
    private final InputDecoder decoder =
        new InputDecoder(registry, SUBJECT, MAX_ROW_BYTES, new AcceptedSchemas(decisions), time);
    private final byte[] value = rows.serialize(row(7, "books", 12));

    @Test
    void shouldReadAnUpdateWithDefaultDiffOfPlusOne() {
        Decoded.UpdateRecord update = assertInstanceOf(Decoded.UpdateRecord.class,
            decoder.decode(value, 1_500L, new RecordHeaders()));

        assertEquals(1_500L, update.time());
        assertEquals(rows.schemaId(Workload.ROW_SCHEMA), update.schemaId());
        assertArrayEquals(Arrays.copyOfRange(value, WireFormat.HEADER_SIZE, value.length), update.row());
        assertEquals(1L, update.diff());
    }

    @Test
    void shouldReadAnExplicitDiff() {
        Decoded decoded = decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "-3"));

        assertEquals(-3L, assertInstanceOf(Decoded.UpdateRecord.class, decoded).diff());
    }

    @Test
    void shouldUseTheLastDiffHeader() {
        Headers headers = headers(InputDecoder.DIFF_HEADER, "oops");
        headers.add(InputDecoder.DIFF_HEADER, "5".getBytes(StandardCharsets.UTF_8));

        assertEquals(5L, assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, headers)).diff());
    }

    @Test
    void shouldReadProgress() {
        assertEquals(new Decoded.Progress(2_000L), decoder.decode(null, 0L, headers(InputDecoder.UPPER_HEADER, "2000")));
        assertEquals(new Decoded.Progress(0L), decoder.decode(null, -1L, headers(InputDecoder.UPPER_HEADER, "0")));
    }

    @Test
    void shouldDeadLetterANullValueWithoutUpper() {
        assertBad(DeadLetterReason.MISSING_UPPER, decoder.decode(null, 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterABadUpper() {
        assertBad(DeadLetterReason.BAD_UPPER, decoder.decode(null, 0L, headers(InputDecoder.UPPER_HEADER, "soon")));
        assertBad(DeadLetterReason.BAD_UPPER, decoder.decode(null, 0L, headers(InputDecoder.UPPER_HEADER, "")));
        assertBad(DeadLetterReason.BAD_UPPER,
            decoder.decode(null, 0L, headers(InputDecoder.UPPER_HEADER, "99999999999999999999")));
        Headers nullHeaderValue = new RecordHeaders().add(InputDecoder.UPPER_HEADER, null);
        assertBad(DeadLetterReason.BAD_UPPER, decoder.decode(null, 0L, nullHeaderValue));
    }

    @Test
    void shouldDeadLetterANegativeUpper() {
        assertBad(DeadLetterReason.BAD_UPPER, decoder.decode(null, 0L, headers(InputDecoder.UPPER_HEADER, "-1")));
    }

    @Test
    void shouldDeadLetterAnUpdateThatCarriesAnUpper() {
        assertBad(DeadLetterReason.UPPER_ON_UPDATE, decoder.decode(value, 0L, headers(InputDecoder.UPPER_HEADER, "10")));
    }

    @Test
    void shouldDeadLetterANegativeTimestamp() {
        assertBad(DeadLetterReason.BAD_TIMESTAMP, decoder.decode(value, -1L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterAnUpdateMarkedWithAnInvalidTimestamp() {
        Decoded.Bad bad = assertBad(DeadLetterReason.BAD_TIMESTAMP,
            decoder.decode(value, 0L, headers(InvalidTimestampMarker.HEADER, "-1")));

        assertTrue(bad.detail().contains("-1"), bad.detail());
    }

    @Test
    void shouldReadProgressEvenWithoutATimestamp() {
        Headers headers = headers(InputDecoder.UPPER_HEADER, "3000").add(InvalidTimestampMarker.HEADER,
            "-1".getBytes(StandardCharsets.UTF_8));

        assertEquals(new Decoded.Progress(3_000L), decoder.decode(null, 0L, headers));
    }

    /**
     * A row within max.row.bytes that a changelog record cannot hold (the producer's max.request.size
     * less headroom): buffered, its block's send failed and stopped the task at every restart.
     */
    @Test
    void shouldDeadLetterARowLargerThanAChangelogRecordHolds() {
        InputDecoder small = new InputDecoder(registry, SUBJECT, MAX_ROW_BYTES, 40, new AcceptedSchemas(decisions), time);
        Decoded.Bad bad = assertBad(DeadLetterReason.OVERSIZED_ROW,
            small.decode(rows.serialize(row(1, "z".repeat(50), 1)), 0L, new RecordHeaders()));
        assertTrue(bad.detail().contains("max.request.size"), bad.detail());
        assertInstanceOf(Decoded.UpdateRecord.class,
            small.decode(rows.serialize(row(1, "z".repeat(30), 1)), 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterARowLargerThanTheLimitAndAcceptOneAtIt() {
        GenericRecord big = row(1, "x".repeat(MAX_ROW_BYTES), 1);
        Decoded.Bad bad = assertBad(DeadLetterReason.OVERSIZED_ROW,
            decoder.decode(rows.serialize(big), 0L, new RecordHeaders()));
        assertTrue(bad.detail().contains("max.row.bytes 64"), bad.detail());

        // id 1, amount 1 and the string's length take a byte each: 61 characters make 64 bytes
        byte[] atLimit = rows.serialize(row(1, "y".repeat(61), 1));
        assertEquals(MAX_ROW_BYTES, atLimit.length - WireFormat.HEADER_SIZE);
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(atLimit, 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterARowWhoseSchemaIsNotAVersionOfTheShardsSubject() {
        Schema other = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredString("id").endRecord();
        GenericRecord row = new GenericData.Record(other);
        row.put("id", "seven");
        byte[] foreign = new AvroRowCodec(registry, "another-subject").serialize(row);

        Decoded.Bad bad = assertBad(DeadLetterReason.INCOMPATIBLE_SCHEMA, decoder.decode(foreign, 0L, new RecordHeaders()));
        assertTrue(bad.detail().contains(SUBJECT), bad.detail());
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
        // readable by the latest version or not: only a version of the subject is a fact a replay finds again
        byte[] readable = new AvroRowCodec(registry, "third-subject").serialize(v2Row("elsewhere"));
        assertBad(DeadLetterReason.INCOMPATIBLE_SCHEMA, decoder.decode(readable, 0L, new RecordHeaders()));
    }

    @Test
    void shouldAcceptANewerCompatibleVersionAndAnOlderOneAfterIt() {
        byte[] newer = rows.serialize(v2Row("new"));

        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(newer, 0L, new RecordHeaders()));
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
    }

    @Test
    void shouldAcceptARefusedSchemaOnceRegisteredUnderTheSubjectAfterTheRecheckInterval() {
        Schema withoutAmount = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredLong("id").requiredString("category").endRecord();
        GenericRecord row = new GenericData.Record(withoutAmount);
        row.put("id", 1L);
        row.put("category", "books");
        byte[] early = new AvroRowCodec(registry, "elsewhere").serialize(row);
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
        assertBad(DeadLetterReason.INCOMPATIBLE_SCHEMA, decoder.decode(early, 0L, new RecordHeaders()));

        registry.register(SUBJECT, withoutAmount);
        assertBad(DeadLetterReason.INCOMPATIBLE_SCHEMA, decoder.decode(early, 0L, new RecordHeaders()));

        time.sleep(InputDecoder.SCHEMA_RECHECK_MS);
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(early, 0L, new RecordHeaders()));
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
    }

    @Test
    void shouldGiveAReplayedRowTheSameFateAfterTheSubjectsLatestVersionChanged() {
        registry.setCompatibility(SUBJECT, "NONE");
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));

        // before the aborted transaction is replayed, a version that cannot read the row becomes the latest
        Schema amountAsString = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredLong("id").requiredString("category").requiredString("amount").endRecord();
        registry.register(SUBJECT, amountAsString);

        // the row may already be sealed in a shared batch: dead-lettering it now would make it both;
        // its acceptance was rolled back with the aborted transaction, so the replay decides again
        Decoded replay = replayed(MAX_ROW_BYTES, TestStores.inMemory("rolled-back", Serdes.Integer()))
            .decode(value, 0L, new RecordHeaders());
        assertInstanceOf(Decoded.UpdateRecord.class, replay, replay::toString);
    }

    @Test
    void shouldGiveAReplayedRowTheSameFateAfterMaxRowBytesChanged() {
        byte[] sixtyBytes = rows.serialize(row(1, "y".repeat(57), 1));
        assertEquals(60, sixtyBytes.length - WireFormat.HEADER_SIZE);
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
        KeyValueStore<Integer, byte[]> committed = TestStores.copyOf(decisions, "committed");
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(sixtyBytes, 0L, new RecordHeaders()));

        // restarted with a lower limit, the task replays what its aborted transaction had decided
        Decoded replay = replayed(32, committed).decode(sixtyBytes, 0L, new RecordHeaders());
        assertInstanceOf(Decoded.UpdateRecord.class, replay, replay::toString);
    }

    /** The decoder of the task that replays after an abort: a new one, with the committed state. */
    private InputDecoder replayed(int maxRowBytes, KeyValueStore<Integer, byte[]> committed) {
        return new InputDecoder(registry, SUBJECT, maxRowBytes, new AcceptedSchemas(committed), time);
    }

    @Test
    void shouldJudgeANewSchemaIdByTheLimitInForceWhenItIsFirstAccepted() {
        byte[] sixtyBytes = rows.serialize(row(1, "y".repeat(57), 1));
        assertInstanceOf(Decoded.UpdateRecord.class, decoder.decode(value, 0L, new RecordHeaders()));
        InputDecoder restarted = replayed(32, TestStores.copyOf(decisions, "committed"));

        Decoded.Bad bad = assertBad(DeadLetterReason.OVERSIZED_ROW,
            restarted.decode(rows.serialize(v2Row("a note to make it long enough")), 0L, new RecordHeaders()));
        assertTrue(bad.detail().contains("max.row.bytes 32"), bad.detail());
        assertInstanceOf(Decoded.UpdateRecord.class, restarted.decode(sixtyBytes, 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterADiffThatIsNotADecimalLong() {
        assertBad(DeadLetterReason.BAD_DIFF, decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "one")));
        assertBad(DeadLetterReason.BAD_DIFF, decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "1.5")));
        assertBad(DeadLetterReason.BAD_DIFF, decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "")));
    }

    @Test
    void shouldDeadLetterADiffThatOverflowsALong() {
        assertBad(DeadLetterReason.BAD_DIFF,
            decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "99999999999999999999")));
    }

    @Test
    void shouldAbbreviateALongBadHeaderInTheDetail() {
        Decoded.Bad bad = assertInstanceOf(Decoded.Bad.class,
            decoder.decode(value, 0L, headers(InputDecoder.DIFF_HEADER, "x".repeat(10_000))));

        assertTrue(bad.detail().length() < 200, bad.detail());
    }

    @Test
    void shouldDeadLetterAWrongMagicByte() {
        byte[] wrong = value.clone();
        wrong[0] = 1;

        assertBad(DeadLetterReason.BAD_MAGIC, decoder.decode(wrong, 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterAValueTooShortForTheHeader() {
        assertBad("too-short", decoder.decode(new byte[] {0, 0, 0}, 0L, new RecordHeaders()));
        assertBad("too-short", decoder.decode(new byte[0], 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterTruncatedAvro() {
        assertBad(DeadLetterReason.UNDECODABLE,
            decoder.decode(Arrays.copyOf(value, value.length - 1), 0L, new RecordHeaders()));
        assertBad(DeadLetterReason.UNDECODABLE,
            decoder.decode(Arrays.copyOf(value, WireFormat.HEADER_SIZE), 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterTrailingBytes() {
        assertBad(DeadLetterReason.UNDECODABLE,
            decoder.decode(Arrays.copyOf(value, value.length + 1), 0L, new RecordHeaders()));
    }

    @Test
    void shouldDeadLetterAnUnknownSchemaId() {
        byte[] unknown = WireFormat.encode(999, Arrays.copyOfRange(value, WireFormat.HEADER_SIZE, value.length));

        Decoded.Bad bad = assertBad(DeadLetterReason.UNKNOWN_SCHEMA, decoder.decode(unknown, 0L, new RecordHeaders()));
        assertTrue(bad.detail().contains("999"), bad.detail());
    }

    @Test
    void shouldLetAnUnreachableRegistryPropagateInsteadOfDeadLettering() {
        SchemaRegistry down = new SchemaRegistry() {
            public int register(String subject, Schema schema) {
                throw new RegistryUnavailableException("down", null);
            }

            public Schema schemaById(int id) {
                throw new RegistryUnavailableException("down", null);
            }

            public SubjectVersion latest(String subject) {
                throw new RegistryUnavailableException("down", null);
            }

            public boolean isVersionOf(String subject, int id) {
                throw new RegistryUnavailableException("down", null);
            }

            public void setCompatibility(String subject, String level) {
            }

            public String compatibility(String subject) {
                return "BACKWARD";
            }
        };

        assertThrows(RegistryUnavailableException.class,
            () -> new InputDecoder(down, SUBJECT, MAX_ROW_BYTES, new AcceptedSchemas(decisions), time)
                .decode(value, 0L, new RecordHeaders()));
    }

    private static Decoded.Bad assertBad(String reason, Decoded decoded) {
        Decoded.Bad bad = assertInstanceOf(Decoded.Bad.class, decoded);
        assertEquals(reason, bad.reason(), bad.detail());
        return bad;
    }

    private static Headers headers(String name, String value) {
        return new RecordHeaders().add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A row of v1 plus a field with a default (BACKWARD compatible), registered as a new version. */
    private static GenericRecord v2Row(String note) {
        Schema v2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredLong("id").requiredString("category").requiredLong("amount")
            .name("note").type().stringType().stringDefault("").endRecord();
        GenericRecord row = new GenericData.Record(v2);
        row.put("id", 1L);
        row.put("category", "books");
        row.put("amount", 2L);
        row.put("note", note);
        return row;
    }

    static GenericRecord row(long id, String category, long amount) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", category);
        row.put("amount", amount);
        return row;
    }
}
