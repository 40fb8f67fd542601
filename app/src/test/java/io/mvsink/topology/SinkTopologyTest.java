package io.mvsink.topology;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.consensus.ConsensusKeys;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.codec.Codecs;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.AvroRowCodec;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
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
 * The topology in one process (TopologyTestDriver, one partition), with in-memory registry and
 * blob store: closing, reporting, appending, feedback and stale rejection.
 */
class SinkTopologyTest {
    private static final SinkTopology.Topics TOPICS = new SinkTopology.Topics("c", "r", "k", "d");
    /** The driver's wall clock: a dead letter is stamped with it. */
    private static final long WALL_CLOCK_MS = 1_800_000_000_000L;

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final ShardMetrics metrics = new ShardMetrics("s");
    private BatchCoalescer builder;
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> corrections;
    private TestInputTopic<byte[], byte[]> reports;
    private TestOutputTopic<byte[], byte[]> consensus;
    private AvroRowCodec rows;

    @BeforeEach
    void start() {
        builder = TestCoalescer.of(CoalescingMode.NONE).blobs(blobs).schemas(registry)
            .shard(TestCoalescer.sink("s", metrics)).build();
        SinkContext sink = new SinkContext(SinkSettings.of("s", "c-value").withPunctuate(Duration.ofMillis(10)).withMaxRowBytes(4096),
            Time.SYSTEM, metrics, builder, registry);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(SinkTopology.build(TOPICS, sink), props, Instant.ofEpochMilli(WALL_CLOCK_MS));
        corrections = driver.createInputTopic("c", new ByteArraySerializer(), new ByteArraySerializer());
        reports = driver.createInputTopic("r", new ByteArraySerializer(), new ByteArraySerializer());
        consensus = driver.createOutputTopic("k", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        rows = new AvroRowCodec(registry, "c-value");
    }

    @AfterEach
    void stop() {
        driver.close();
        builder.close();
    }

    @Test
    void shouldSealAFrontierJumpWithOneContributionAndTrimAfterTheSeal() {
        update(row(1), 1_500, 1);
        update(row(2), 2_500, 1);
        update(row(2), 2_500, -1);
        progress(1_000_000);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        List<StateDiff> diffs = diffs();
        assertEquals(1, diffs.size(), "one append");
        StateDiff diff = diffs.get(0);
        assertEquals(0, diff.getLower());
        assertEquals(1_000_000, diff.getUpper());
        assertEquals(1, diff.getAdded().size(), "a jump over 1000 grid intervals is one contribution");
        assertEquals(1, diff.getAdded().get(0).getUpdates(), "row 2 consolidated away");
        assertEquals(1, metrics.contributions());

        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(0, count(buffer()), "the sealed update is trimmed once the consensus topic shows it");
    }

    @Test
    void shouldWriteTheBufferToItsChangelogWhenTheTaskCommitsOneRecordPerInterval() {
        TestOutputTopic<byte[], byte[]> changelog = driver.createOutputTopic("test-" + StoreNames.BUFFER + "-changelog",
            new ByteArrayDeserializer(), new ByteArrayDeserializer());
        RecordHeaders headers = new RecordHeaders();
        corrections.pipeRecordList(List.of(
            new TestRecord<>(null, rows.serialize(row(1)), headers, Instant.ofEpochMilli(100)),
            new TestRecord<>(null, rows.serialize(row(2)), headers, Instant.ofEpochMilli(200)),
            new TestRecord<>(null, rows.serialize(row(3)), headers, Instant.ofEpochMilli(1_200))));

        List<TestRecord<byte[], byte[]>> written = changelog.readRecordsToList();
        assertEquals(3, written.size(), "the driver commits after each record: one block per record here");
        assertEquals(3, count(buffer()), "every update is in the store the driver committed");
        long blocks = written.stream().filter(r -> ByteBuffer.wrap(r.key()).getInt(8) == -1).count();
        assertEquals(written.size(), blocks, "block keys only");
    }

    @Test
    void shouldReportTheBufferedBytesUntilTheyAreSealed() {
        update(row(1), 500, 1);
        update(row(2), 1_500, 1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        long both = metrics.correctionBufferBytes();
        assertTrue(both > 20, "two rows + 10 bytes each: " + both);

        progress(1_200);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(1000, diffs().get(0).getUpper());
        long left = metrics.correctionBufferBytes();
        assertTrue(left > 0 && left < both, "the sealed interval's bytes are gone, the other's stay: " + left);
    }

    /**
     * Issue 21 item 8: after a crash the consensus topic can show the shard sealed above what the
     * restored task has replayed; the replayed updates below the sealed upper arrive after the
     * task's first trim and must be trimmed too, not held until the next restart.
     */
    @Test
    void shouldTrimReplayedUpdatesBelowTheSealedUpperThatArriveAfterTheFirstTrim() {
        Batch sealedBeforeTheCrash = Batches.batch(0, 5_000, 0);
        StateDiff diff = StateDiff.newBuilder().setShard("s").setSeqno(1L).setLower(0L).setUpper(5_000L)
            .setPartitionCount(1).setAdded(List.of(sealedBeforeTheCrash)).setAppendedAtMs(WALL_CLOCK_MS).build();
        driver.createInputTopic("k", new ByteArraySerializer(), new ByteArraySerializer()).pipeInput(
            ConsensusKeys.diff("s", 1).getBytes(StandardCharsets.UTF_8), Codecs.STATE_DIFF.encode(diff));
        driver.advanceWallClockTime(Duration.ofMillis(20)); // the task's first trim, at 5000

        update(row(1), 1_500, 1); // replayed from the committed offset: sealed already
        update(row(2), 4_500, 1);
        update(row(3), 5_500, 1);
        driver.advanceWallClockTime(Duration.ofMillis(20));

        assertEquals(1, count(buffer()), "only row 3 at 5500 is above the sealed upper");
    }

    @Test
    void shouldKeepUpdatesAboveTheSealInTheBuffer() {
        update(row(1), 500, 1);
        update(row(2), 1_500, 1);
        progress(1_200);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(1000, diffs().get(0).getUpper());
        assertEquals(1, count(buffer()), "row 2 at 1500 is not sealed");
    }

    @Test
    void shouldRejectAndCountAStaleReport() {
        progress(2_000);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(2_000, diffs().get(0).getUpper());

        Batch stale = Batches.batch(1_000, 3_000, 0);
        reports.pipeInput(new TestRecord<>("s".getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(stale, "test", 0L))));
        assertEquals(1, metrics.mismatches());
        progress(4_000);
        awaitBuilt(2);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        StateDiff next = diffs().get(0);
        assertEquals(2, next.getSeqno());
        assertEquals(2_000, next.getLower());
        assertTrue(next.getGarbageBlobs().contains(stale.getParts().get(0).getKey()),
            "the stale batch's blobs are recorded as garbage");
    }

    @Test
    void shouldCountAStaleReportOfSealedRangesOnlyAsARedundantCopy() {
        progress(2_000);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(2_000, diffs().get(0).getUpper());

        // a copy made by contributing again, reported after another batch sealed its range
        reports.pipeInput(new TestRecord<>("s".getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(Batches.batch(1_000, 2_000, 0), "test", 0L))));
        assertEquals(1, metrics.mismatches());
        assertEquals(1, metrics.redundantBatches(), "every range of it was sealed by another batch");
        // part of it above the upper: its data was not sealed by anything else
        reports.pipeInput(new TestRecord<>("s".getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(Batches.batch(1_000, 3_000, 0), "test", 0L))));
        assertEquals(2, metrics.mismatches());
        assertEquals(1, metrics.redundantBatches(), "a batch that reaches above the upper is not redundant");
    }

    @Test
    void shouldDeadLetterAProgressRecordThatMovesTheFrontierBack() {
        progress(5_000);
        progress(4_000);
        TestOutputTopic<byte[], byte[]> dead = driver.createOutputTopic("d", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TestRecord<byte[], byte[]> r = dead.readRecord();
        assertEquals("frontier-regressed", new String(r.headers().lastHeader("mvsink.dlq.reason").value(), StandardCharsets.UTF_8));
        // stamped when dead-lettered (retention counts from it), the update's time kept in a header
        assertEquals(WALL_CLOCK_MS, r.timestamp());
        assertEquals("4000", new String(r.headers().lastHeader("mvsink.dlq.timestamp").value(), StandardCharsets.UTF_8));
    }

    @Test
    void shouldDeadLetterAnUpdateWithoutATimestampAndKeepSealing() {
        update(row(1), 500, 1);
        // TestRecord's Long constructor refuses -1; its Instant one takes it, as a broker does
        corrections.pipeInput(new TestRecord<>(null, rows.serialize(row(2)), new RecordHeaders(), Instant.ofEpochMilli(-1)));
        progress(1_000);
        awaitBuilt(1);
        driver.advanceWallClockTime(Duration.ofMillis(20));
        TestOutputTopic<byte[], byte[]> dead = driver.createOutputTopic("d", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TestRecord<byte[], byte[]> r = dead.readRecord();
        assertEquals("bad-timestamp", new String(r.headers().lastHeader("mvsink.dlq.reason").value(), StandardCharsets.UTF_8));
        assertEquals("500", new String(r.headers().lastHeader("mvsink.dlq.timestamp").value(), StandardCharsets.UTF_8),
            "the partition time the marker gave it (README); the original is in mvsink.invalid-timestamp");
        assertEquals(1, metrics.deadLetteredCount("bad-timestamp"));
        StateDiff diff = diffs().get(0);
        assertEquals(1_000, diff.getUpper());
        assertEquals(1, diff.getAdded().get(0).getUpdates(), "row 1 sealed, row 2 dead-lettered");
    }

    private List<StateDiff> diffs() {
        return consensus.readRecordsToList().stream()
            .filter(r -> ConsensusKeys.isDiff(new String(r.key(), StandardCharsets.UTF_8)))
            .map(r -> Codecs.STATE_DIFF.decode(r.value())).toList();
    }

    private void awaitBuilt(int contributions) {
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics.batchesBuilt() >= contributions);
    }

    private CorrectionBuffer buffer() {
        return (CorrectionBuffer) driver.getStateStore(StoreNames.BUFFER);
    }

    /** Updates in the buffer's store: the commit after each input record has written them. */
    private static long count(CorrectionBuffer buffer) {
        long[] n = {0};
        buffer.sizes((time, size) -> n[0]++);
        return n[0];
    }

    private GenericRecord row(long id) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", "c");
        row.put("amount", 1L);
        return row;
    }

    private void update(GenericRecord row, long time, long diff) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("mvsink.diff", Long.toString(diff).getBytes(StandardCharsets.UTF_8));
        corrections.pipeInput(new TestRecord<>(null, rows.serialize(row), headers, time));
    }

    private void progress(long upper) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("mvsink.upper", Long.toString(upper).getBytes(StandardCharsets.UTF_8));
        corrections.pipeInput(new TestRecord<>(null, null, headers, upper));
    }
}
