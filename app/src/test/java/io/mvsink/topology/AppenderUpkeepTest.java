package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.codec.Codecs;
import io.mvsink.compact.BatchMerge;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardFold;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The appender's upkeep in one process (TopologyTestDriver, reports piped in directly): merges
 * committed as compaction appends, since, rollups with tombstones, refusals of merges and batches
 * that are too old. Merges run inline with a merge that only describes the merged batch.
 */
class AppenderUpkeepTest {
    private static final int PARTITIONS = 2;
    private static final long WIDTH = 1000;

    private final ShardMetrics metrics = new ShardMetrics("s");
    private final List<List<Batch>> merged = new ArrayList<>();
    private LongSupplier mergeClosedAt = System::currentTimeMillis;
    private BatchCoalescer builder;
    private TopologyTestDriver driver;
    private TopologyDriver topology;
    private TestOutputTopic<byte[], byte[]> consensus;
    /** The consensus topic as compaction leaves it: the latest value of every key (null: tombstone). */
    private final Map<String, byte[]> compacted = new TreeMap<>();
    private final List<StateDiff> history = new ArrayList<>();

    private void start(boolean compacts, long sinceLagMs, int rollupAppends) {
        start(compacts, sinceLagMs, rollupAppends, 0);
    }

    private void start(boolean compacts, long sinceLagMs, int rollupAppends, long inlineMergeBytes) {
        builder = TestCoalescer.of(CoalescingMode.NONE).shard(TestCoalescer.sink("s", metrics)).build();
        BatchMerge merge = (shard, partitions, batches, since) -> {
            merged.add(batches);
            return mergedBatch(batches, mergeClosedAt.getAsLong());
        };
        SinkContext.Upkeep upkeep = SinkContext.Upkeep.DEFAULT.withMerge(compacts ? merge : null, Runnable::run)
            .withMaxBatchBytes(1L << 30).withSinceLagMs(sinceLagMs).withRollupAppends(rollupAppends)
            .withInlineMergeBytes(inlineMergeBytes);
        SinkContext sink = new SinkContext(SinkSettings.of("s", "c-value").withIntervalMs(WIDTH).withPartitions(PARTITIONS)
            .withPunctuate(Duration.ofMillis(10)).withMaxRowBytes(4096), Time.SYSTEM, metrics, builder, new InMemorySchemaRegistry(), upkeep);
        topology = new TopologyDriver(sink);
        driver = topology.driver;
        consensus = topology.consensus;
    }

    @AfterEach
    void stop() {
        topology.close();
        builder.close();
    }

    @Test
    void shouldKeepLiveBatchesLogarithmicAndTheCompactedTopicBoundedOverSixThousandSeals() {
        int rollupAppends = 50;
        start(true, -1, rollupAppends);
        int maxLive = 0;
        int maxRetained = 0;
        for (int k = 0; k < 6_000; k++) {
            // two batches per interval, as two JVMs would deliver
            report(batch(k * WIDTH, (k + 1) * WIDTH, 0));
            report(batch(k * WIDTH, (k + 1) * WIDTH, 1));
            driver.advanceWallClockTime(Duration.ofMillis(10));
            drain();
            maxLive = Math.max(maxLive, (int) metrics.liveBatches());
            maxRetained = Math.max(maxRetained, (int) compacted.values().stream().filter(v -> v != null).count());
            if (k % 97 == 0) {
                ShardState state = rebuilt();
                assertEquals((k + 1) * WIDTH, state.upper());
                assertEquals(metrics.liveBatches(), state.batches().size());
            }
        }
        long appends = history.size();
        long seals = metrics.appends();
        assertEquals(6_000, seals);
        assertTrue(metrics.compactions() > 1_000, "merges committed: " + metrics.compactions());
        // 2 batches of weight 1 per seal: total weight 12,000; runs are geometric, so at most
        // 1 + log2(12000) = 14.6 runs, plus the newest seal's two batches waiting for their merge
        assertTrue(maxLive <= 17, "live batches stayed logarithmic: at most " + maxLive);
        assertTrue(maxRetained <= rollupAppends + 1, "retained consensus records: at most " + maxRetained);
        assertEquals(appends / rollupAppends, metrics.rollups());
        // the compacted topic describes the same state as the whole history
        ShardState replayed = new ShardState("s");
        history.forEach(replayed::apply);
        ShardState fromRollup = rebuilt();
        assertEquals(replayed.seqno(), fromRollup.seqno());
        assertEquals(replayed.upper(), fromRollup.upper());
        assertEquals(ids(replayed), ids(fromRollup));
        assertEquals(0, metrics.compactionConflicts());
        System.out.printf("appender upkeep: seals=%d appends=%d compactions=%d rollups=%d maxLive=%d maxRetained=%d%n",
            seals, appends, metrics.compactions(), metrics.rollups(), maxLive, maxRetained);
    }

    @Test
    void shouldMergeInlineSealsOnlyOnceTheyHoldTheMergeBytesAndStayBounded() {
        long mergeBytes = 10_000;
        start(true, -1, 50, mergeBytes);
        int maxLive = 0;
        long maxInline = 0;
        for (int k = 0; k < 1_500; k++) {
            report(inline(batch(k * WIDTH, (k + 1) * WIDTH, 0), 100));
            report(inline(batch(k * WIDTH, (k + 1) * WIDTH, 1), 100));
            driver.advanceWallClockTime(Duration.ofMillis(10));
            drain();
            maxLive = Math.max(maxLive, (int) metrics.liveBatches());
            if (k % 37 == 0) {
                maxInline = Math.max(maxInline, rebuilt().inlineBytes());
            }
        }
        // 200 inline bytes per seal: a merge every 50 seals, of the held seals and the older runs it takes along
        assertTrue(metrics.compactions() >= 1_500 / 50 - 1 && metrics.compactions() <= 1_500 / 50 + 10,
            "merges: " + metrics.compactions());
        assertTrue(maxInline < mergeBytes + 200, "inline bytes held: at most " + maxInline);
        // held: 2 batches per seal for 50 seals, on top of the logarithmic runs of merged batches
        assertTrue(maxLive <= 2 * 50 + 17, "live batches: at most " + maxLive);
        assertEquals(0, rebuilt().batches().stream().filter(b -> b.getParts().isEmpty()).count());
        merged.forEach(inputs -> assertTrue(inputs.stream().mapToLong(ShardState::inlineBytes).sum() >= mergeBytes
            || inputs.stream().anyMatch(b -> ShardState.inlineBytes(b) == 0), "a merge of inline seals only once they hold "
            + mergeBytes + " bytes"));
    }

    @Test
    void shouldLetTheTasksReadTheUpperFromTheRollupWhenEveryDiffIsTombstoned() {
        start(false, -1, 2);
        report(batch(0, WIDTH, 0, 1));
        report(batch(WIDTH, 2 * WIDTH, 0, 1));
        drain();
        assertEquals(1, metrics.rollups());
        assertTrue(compacted.get(ConsensusKeys.diff("s", 1)) == null && compacted.get(ConsensusKeys.diff("s", 2)) == null,
            "both diffs are tombstoned");
        SealedUpper sealed = new SealedUpper(driver.getKeyValueStore(StoreNames.CONSENSUS), "s");
        assertEquals(2 * WIDTH, sealed.get(), "the global store holds only the rollup");
    }

    @Test
    void shouldSeeANewRollupUnderTheSameKeyAsANewUpper() {
        start(false, -1, 2);
        SealedUpper sealed = new SealedUpper(topology.driver.getKeyValueStore(StoreNames.CONSENSUS), "s");
        report(batch(0, WIDTH, 0, 1));
        report(batch(WIDTH, 2 * WIDTH, 0, 1));
        assertEquals(2 * WIDTH, sealed.get(), "the first rollup is the only record left");
        report(batch(2 * WIDTH, 3 * WIDTH, 0, 1));
        report(batch(3 * WIDTH, 4 * WIDTH, 0, 1));
        drain();
        assertEquals(2, metrics.rollups());
        assertEquals(4 * WIDTH, sealed.get(), "the second rollup, at the same key, moved the upper");
    }

    @Test
    void shouldRebuildTheLiveBatchesFromTheConsensusMirrorAcrossRollups() {
        // what an appender store written before live batches were kept is upgraded from
        start(true, -1, 7);
        for (int k = 0; k < 40; k++) {
            report(batch(k * WIDTH, (k + 1) * WIDTH, 0, 1));
            driver.advanceWallClockTime(Duration.ofMillis(10));
        }
        drain();
        assertTrue(metrics.rollups() > 0 && metrics.compactions() > 0);
        ShardState mirrored = ConsensusMirror.state(driver.getKeyValueStore(StoreNames.CONSENSUS), "s");
        ShardState replayed = new ShardState("s");
        history.forEach(replayed::apply);
        assertEquals(replayed.seqno(), mirrored.seqno());
        assertEquals(replayed.upper(), mirrored.upper());
        assertEquals(ids(replayed), ids(mirrored));
    }

    @Test
    void shouldAdvanceSinceBehindTheUpperByTheLag() {
        start(false, 3 * WIDTH, 100);
        for (int k = 0; k < 10; k++) {
            report(batch(k * WIDTH, (k + 1) * WIDTH, 0, 1));
        }
        drain();
        assertEquals(0, history.get(0).getSince(), "never below 0");
        assertEquals(7 * WIDTH, history.get(9).getSince(), "upper 10000 minus the lag");
    }

    @Test
    void shouldNotCommitAMergeThatFinishedTooLateAndRecordItsPartsAsGarbage() {
        mergeClosedAt = () -> System.currentTimeMillis() - 400_000; // more than half the grace (300 s) ago
        start(true, -1, 100);
        report(batch(0, WIDTH, 0, 1));
        report(batch(WIDTH, 2 * WIDTH, 0, 1));
        driver.advanceWallClockTime(Duration.ofMillis(10));
        report(batch(2 * WIDTH, 3 * WIDTH, 0, 1));
        drain();
        assertTrue(metrics.compactionConflicts() >= 1);
        assertEquals(0, metrics.compactions());
        assertTrue(history.get(history.size() - 1).getGarbageBlobs().stream().anyMatch(k -> k.startsWith("s/merged-")),
            "the late merge's parts are garbage");
    }

    @Test
    void shouldRejectABatchClosedMoreThanHalfTheGraceAgo() {
        start(false, -1, 100);
        Batch old = batch(0, WIDTH, 0, 1);
        old.setClosedAtMs(System.currentTimeMillis() - 301_000);
        report(old);
        drain();
        assertTrue(history.isEmpty(), "not sealed");
        assertEquals(1, metrics.mismatches());
        report(batch(0, WIDTH, 0, 1));
        drain();
        assertEquals(WIDTH, history.get(0).getUpper());
        assertTrue(history.get(0).getGarbageBlobs().contains(old.getParts().get(0).getKey()));
    }

    private void report(Batch batch) {
        topology.report(batch, "test", 0L);
    }

    private void drain() {
        for (TestRecord<byte[], byte[]> r : consensus.readRecordsToList()) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            compacted.put(key, r.value());
            if (r.value() != null && ConsensusKeys.isDiff(key)) {
                history.add(Codecs.STATE_DIFF.decode(r.value()));
            }
        }
    }

    /** The state a reader rebuilds from the compacted topic: its records in key order (grace, rollup, diffs). */
    private ShardState rebuilt() {
        ShardFold fold = ShardFold.of("s", false);
        new TreeMap<>(compacted).forEach(fold::accept);
        return fold.state();
    }

    private static List<String> ids(ShardState state) {
        return state.batches().stream().map(Batch::getBatchId).sorted().toList();
    }

    private static Batch batch(long lower, long upper, int... partitions) {
        Batch batch = Batches.batch(lower, upper, partitions);
        batch.setClosedAtMs(System.currentTimeMillis());
        return batch;
    }

    /** {@code batch} with one inline part of {@code bytes} bytes instead of its blob part. */
    private static Batch inline(Batch batch, int bytes) {
        batch.setParts(List.of(new Part("", 1, (long) bytes, 1L, java.nio.ByteBuffer.wrap(new byte[bytes]))));
        batch.setBytes((long) bytes);
        return batch;
    }

    private static Batch mergedBatch(List<Batch> batches, long closedAt) {
        long lower = batches.stream().mapToLong(Batch::getLower).min().orElseThrow();
        long upper = batches.stream().mapToLong(Batch::getUpper).max().orElseThrow();
        List<Contribution> contributions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            contributions.add(new Contribution(p, lower, upper, 0L));
        }
        String id = UUID.randomUUID().toString();
        long updates = batches.stream().mapToLong(Batch::getUpdates).sum();
        return Batch.newBuilder().setBatchId(id).setShard("s").setLower(lower).setUpper(upper)
            .setSchemaIds(List.of(1)).setContributions(contributions)
            .setParts(List.of(new Part("s/merged-" + id, 1, 10L, updates, null))).setUpdates(updates).setBytes(10L)
            .setClosedAtMs(closedAt).build();
    }
}
