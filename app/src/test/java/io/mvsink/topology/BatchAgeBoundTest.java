package io.mvsink.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.batch.ContributionData;
import io.mvsink.protocol.Handle;
import io.mvsink.protocol.Outcome;
import io.mvsink.batch.ShardSink;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.Update;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.time.TimeRange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The age bound the blob GC rests on (DESIGN invariant 10): the appender never seals a batch
 * whose parts may have been written more than half of {@code gc.grace.ms} ago, whatever path the
 * batch takes to a seal: waiting pending for a lagging partition, or built by a builder whose
 * close was delayed by a stalled tick. One clock (a mock) drives the builder and the appender.
 */
class BatchAgeBoundTest {
    private static final long WIDTH = 1000;
    private static final long GRACE_MS = 600_000;
    private static final long MAX_AGE_MS = GRACE_MS / 2;

    private final MockTime time = new MockTime(0, 1_700_000_000_000L, 0);
    private final ShardMetrics metrics = new ShardMetrics("s");
    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final int schemaId = schemas.register("c-value", Workload.ROW_SCHEMA);
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private BatchCoalescer builder;
    private TopologyDriver topology;

    @BeforeEach
    void start() {
        // barrier mode, one part per update: parts are written as soon as a contribution arrives
        builder = TestCoalescer.of(CoalescingMode.BARRIER).blobs(blobs).schemas(schemas).time(time).parts(1)
            .settings(s -> s.withBarrierTimeout(Duration.ofSeconds(5)))
            .shard(new ShardSink("s", "s/", "k/s", metrics)).build();
        SinkContext.Upkeep upkeep = SinkContext.Upkeep.DEFAULT.withMaxBatchBytes(1L << 30).withGraceMs(GRACE_MS);
        SinkContext sink = new SinkContext(SinkSettings.of("s", "c-value").withIntervalMs(WIDTH).withPartitions(2)
            .withPunctuate(Duration.ofMillis(10)).withMaxRowBytes(4096), time, metrics, builder, schemas, upkeep);
        topology = new TopologyDriver(sink);
    }

    @AfterEach
    void stop() {
        topology.close();
        builder.close();
    }

    @Test
    void shouldNeverSealABatchThatGrewTooOldWhileItWaitedForALaggingPartition() {
        Batch early = batch(0);
        report(early);
        // partition 1 lags longer than the bound: the GC may delete partition 0's unreferenced parts
        time.sleep(MAX_AGE_MS + 1_000);
        report(batch(1));

        assertTrue(seals().isEmpty(), "the old batch of partition 0 is not sealed");
        assertEquals(1, metrics.mismatches(), "the old batch is rejected");

        report(batch(0)); // partition 0 contributes again
        List<StateDiff> seals = seals();
        assertEquals(1, seals.size());
        assertTrue(seals.get(0).getAdded().stream().noneMatch(b -> b.getBatchId().equals(early.getBatchId())));
        assertTrue(seals.get(0).getGarbageBlobs().contains(early.getParts().get(0).getKey()),
            "the old batch's parts are garbage");
    }

    @Test
    void shouldDropAPendingBatchOnceItIsTooOldEvenWithoutAnotherReport() {
        Batch early = batch(0);
        report(early);
        time.sleep(MAX_AGE_MS + 1_000);
        topology.driver.advanceWallClockTime(Duration.ofMillis(20)); // the appender's punctuation

        assertEquals(1, metrics.mismatches(), "expired while pending");
        report(batch(1));
        report(batch(0));
        assertTrue(seals().get(0).getGarbageBlobs().contains(early.getParts().get(0).getKey()));
    }

    @Test
    void shouldJudgeABatchsAgeByItsFirstPartWriteWhenTheBuilderClosedLate() {
        builder.register("s", 0);
        builder.register("s", 1);
        Handle first = builder.contribute(contribution(0)).orElseThrow();
        await().atMost(Duration.ofSeconds(20)).until(() -> blobs.writeRequests() >= 2);
        // the stream threads stall: no tick closes the barrier, which closes only when partition 1
        // contributes, long after partition 0's parts were written
        time.sleep(MAX_AGE_MS + 1_000);
        builder.contribute(contribution(1)).orElseThrow();
        Outcome.Report owned = reportOf(first);
        assertEquals(2, owned.batch().getContributions().size());

        // reported as CorrectionProcessor reports an owned batch
        topology.report(owned.batch(), "0_0", owned.firstWriteAtMs());

        assertTrue(seals().isEmpty(), "parts written " + (MAX_AGE_MS + 1_000) + " ms ago are not sealed");
        assertEquals(1, metrics.mismatches());
    }

    @Test
    void shouldRecordTheShardsGraceWithItsFirstAppendOnly() {
        report(batch(0));
        report(batch(1));
        time.sleep(WIDTH);
        report(Batches.batch(WIDTH, 2 * WIDTH, 0, 1));

        List<ShardGrace> graces = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : topology.consensus.readRecordsToList()) {
            if (new String(r.key(), StandardCharsets.UTF_8).equals(ConsensusKeys.grace("s"))) {
                graces.add(ShardGrace.of(Codecs.GRACE.decode(r.value())));
            }
        }
        assertEquals(List.of(new ShardGrace(GRACE_MS, 0, 1_700_000_000_000L)), graces,
            "one record, written with the first append");
    }

    private ContributionData contribution(int partition) {
        List<Update> updates = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            updates.add(TestUpdates.update(schemaId, TestUpdates.row(partition * 10L + i, "c", i), i, 1));
        }
        return new ContributionData("s", partition, new TimeRange(0, WIDTH), updates, time.milliseconds());
    }

    private Outcome.Report reportOf(Handle handle) {
        AtomicReference<Outcome> outcome = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            outcome.set(builder.poll(handle));
            return !(outcome.get() instanceof Outcome.Pending);
        });
        return assertInstanceOf(Outcome.Report.class, outcome.get());
    }

    /** A batch of one partition's contribution to the first interval, closed now. */
    private Batch batch(int partition) {
        Batch batch = Batches.batch(0, WIDTH, partition);
        batch.setClosedAtMs(time.milliseconds());
        batch.setParts(List.of(new Part("s/" + batch.getBatchId() + "-0000.avro", 1, 10L, 1L, null)));
        return batch;
    }

    private void report(Batch batch) {
        topology.report(batch, "test", 0L);
    }

    /** The state diffs the appender wrote so far. */
    private List<StateDiff> seals() {
        List<StateDiff> diffs = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : topology.consensus.readRecordsToList()) {
            if (r.value() != null && ConsensusKeys.isDiff(new String(r.key(), StandardCharsets.UTF_8))) {
                diffs.add(Codecs.STATE_DIFF.decode(r.value()));
            }
        }
        return diffs;
    }
}
