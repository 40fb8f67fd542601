package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.Update;
import static io.mvsink.protocol.CoalescingMode.BARRIER;
import static io.mvsink.protocol.CoalescingMode.BEST_EFFORT;
import static io.mvsink.protocol.CoalescingMode.NONE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.batch.TestUpdates.ReadUpdate;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.time.TimeRange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.utils.MockTime;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The batch coalescer's protocol, one behaviour per test, on in-memory fakes and a mock clock. */
class BatchCoalescerTest {
    private static final String ORDERS = "orders";
    private static final String PAYMENTS = "payments";
    private static final long BARRIER_TIMEOUT_MS = 5_000;
    private static final long BIG_PARTS = 1 << 20;

    private final MockTime time = new MockTime(0, 1_000_000, 0);
    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final int schemaId = schemas.register("orders-value", Workload.ROW_SCHEMA);
    private final GatedBlobStore blobs = new GatedBlobStore();
    private final ShardMetrics metrics = new ShardMetrics(ORDERS);
    private final Map<ContributionData, List<GenericRecord>> rowsOf = new IdentityHashMap<>();
    private long nextRowId;
    private BatchCoalescer coalescer;

    @AfterEach
    void closeRegistry() {
        blobs.release();
        if (coalescer != null) {
            coalescer.close();
        }
    }

    // ---- none ----

    @Test
    void shouldBuildOneBatchPerContributionWithoutCoalescing() {
        start(NONE, BIG_PARTS, Long.MAX_VALUE);

        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 2));
        }

        assertEquals(3, handles.stream().map(Handle::batchId).distinct().count());
        for (int p = 0; p < 3; p++) {
            Batch batch = reportOf(handles.get(p));
            assertEquals(handles.get(p).batchId(), batch.getBatchId());
            assertEquals(List.of(p), partitions(batch));
        }
        assertEquals(3, metrics.batchesBuilt());
        assertEquals(3, metrics.participants());
        assertEquals(0, coalescer.liveBatches());
    }

    @Test
    void shouldWriteACopyAsBlobsHoweverSmallSoThatABatchRejectedForItsInlineDataComesBackAsBlobs() {
        coalescer = coalescer(NONE, BIG_PARTS, Long.MAX_VALUE)
            .shard(new ShardSink(ORDERS, ORDERS + "/", "test-consensus/" + ORDERS, metrics, 1 << 16)).build();

        Batch minted = reportOf(coalescer.contribute(contribution(ORDERS, 0, 0, 1000, 2), false).orElseThrow());
        Batch copy = reportOf(coalescer.contribute(contribution(ORDERS, 0, 0, 1000, 2), true).orElseThrow());

        assertTrue(minted.getParts().stream().allMatch(part -> part.getInline() != null), "a small batch is inline");
        assertTrue(copy.getParts().stream().allMatch(part -> part.getInline() == null),
            "a copy piece is written as a blob: " + copy.getParts());
    }

    // ---- best effort ----

    @Test
    void shouldCoalesceContributionsThatArriveWhileTheBuilderIsBusy() {
        start(BEST_EFFORT, 1, Long.MAX_VALUE);
        blobs.hold();
        Handle first = contribute(ORDERS, 0, 0, 1000, 2);
        awaitCondition().until(() -> blobs.writesStarted() == 1);

        List<Handle> joiners = new ArrayList<>();
        for (int p = 1; p < 4; p++) {
            joiners.add(contribute(ORDERS, p, 0, 1000, 2));
        }
        for (Handle h : joiners) {
            assertEquals(first.batchId(), h.batchId(), "joined the busy builder");
        }
        assertInstanceOf(Outcome.Pending.class, coalescer.poll(first));
        blobs.release();

        Batch batch = reportOf(first);
        assertEquals(List.of(0, 1, 2, 3), partitions(batch));
        for (Handle h : joiners) {
            assertEquals(new Outcome.Covered(first.batchId()), coalescer.poll(h));
        }
        assertEquals(1, metrics.batchesBuilt());
        assertEquals(4, metrics.participants());
        assertEquals(0, coalescer.liveBatches());
    }

    @Test
    void shouldOpenANewBuilderOnceTheLastOneClosed() {
        start(BEST_EFFORT, BIG_PARTS, Long.MAX_VALUE);
        Handle first = contribute(ORDERS, 0, 0, 1000, 1);
        Batch firstBatch = reportOf(first);

        Handle later = contribute(ORDERS, 1, 0, 1000, 1);

        assertNotEquals(first.batchId(), later.batchId());
        assertEquals(List.of(0), partitions(firstBatch));
        assertEquals(List.of(1), partitions(reportOf(later)));
    }

    @Test
    void shouldGiveASecondContributionOfAPartitionItsOwnBatchWhileTheBuilderIsBusy() {
        start(BEST_EFFORT, 1, Long.MAX_VALUE);
        blobs.hold();
        Handle first = contribute(ORDERS, 0, 0, 1000, 2);
        awaitCondition().until(() -> blobs.writesStarted() == 1);

        Handle again = contribute(ORDERS, 0, 0, 1000, 2);
        Handle other = contribute(ORDERS, 1, 0, 1000, 2);
        blobs.release();

        assertNotEquals(first.batchId(), again.batchId());
        assertEquals(first.batchId(), other.batchId());
        assertEquals(List.of(0, 1), partitions(reportOf(first)));
        assertEquals(List.of(0), partitions(reportOf(again)));
        assertEquals(new Outcome.Covered(first.batchId()), coalescer.poll(other));
    }

    // ---- barrier ----

    @Test
    void shouldCloseTheBarrierWhenEveryRegisteredTaskContributed() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 4);
        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 2));
        }
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertAllPending(handles);

        handles.add(contribute(ORDERS, 3, 0, 1000, 2));

        assertEquals(1, handles.stream().map(Handle::batchId).distinct().count());
        Batch batch = reportOf(handles.get(0));
        assertEquals(List.of(0, 1, 2, 3), partitions(batch));
        assertEquals(8, batch.getUpdates());
        assertEquals(0, metrics.barrierTimeouts());
        assertEquals(1, metrics.batchesBuilt());
        assertEquals(4, metrics.participants());
    }

    @Test
    void shouldCloseTheBarrierOnlyWhenTheTimeoutPassesIfATaskNeverContributes() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 4);
        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 2));
        }

        time.sleep(BARRIER_TIMEOUT_MS - 1);
        coalescer.tick();
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertAllPending(handles);
        assertEquals(0, metrics.barrierTimeouts());
        assertEquals(0, metrics.batchesBuilt());

        time.sleep(1);
        coalescer.tick();
        coalescer.tick();

        assertEquals(List.of(0, 1, 2), partitions(reportOf(handles.get(0))));
        assertEquals(1, metrics.barrierTimeouts());
        assertEquals(1, metrics.batchesBuilt());
    }

    @Test
    void shouldCloseTheBarrierWhenTheMissingTaskDeregisters() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 4);
        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 2));
        }
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertAllPending(handles);

        coalescer.deregister(ORDERS, 3);

        assertEquals(List.of(0, 1, 2), partitions(reportOf(handles.get(0))));
        assertEquals(0, metrics.barrierTimeouts());
    }

    @Test
    void shouldNotWaitForATaskThatContributedPastTheBuildersLower() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        Handle ahead = contribute(ORDERS, 0, 1000, 2000, 1);

        Handle one = contribute(ORDERS, 1, 0, 1000, 1);
        Handle two = contribute(ORDERS, 2, 0, 1000, 1);

        assertEquals(List.of(1, 2), partitions(reportOf(one)));
        assertEquals(new Outcome.Covered(one.batchId()), coalescer.poll(two));
        assertInstanceOf(Outcome.Pending.class, coalescer.poll(ahead));
        assertEquals(0, metrics.barrierTimeouts());
    }

    @Test
    void shouldWaitForATaskThatContributedOnlyUpToTheBuildersLower() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        Handle behind = contribute(ORDERS, 0, 0, 1000, 1);
        Handle one = contribute(ORDERS, 1, 1000, 2000, 1);
        Handle two = contribute(ORDERS, 2, 1000, 2000, 1);
        // tasks 1 and 2 passed [0, 1000) without joining it: it holds task 0 alone
        assertEquals(List.of(0), partitions(reportOf(behind)));
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertAllPending(List.of(one, two));

        Handle caughtUp = contribute(ORDERS, 0, 1000, 2000, 1);

        assertEquals(one.batchId(), caughtUp.batchId());
        assertEquals(List.of(1, 2, 0), partitions(reportOf(caughtUp)));
    }

    @Test
    void shouldNotWaitForATaskThatContributedPastTheBuildersLowerBeforeContributingAnOlderRangeAgain() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        Handle ahead = contribute(ORDERS, 0, 1000, 2000, 1);
        Handle older = contribute(ORDERS, 0, 0, 1000, 1);
        contribute(ORDERS, 1, 0, 1000, 1);
        contribute(ORDERS, 1, 1000, 2000, 1);
        reportOf(older);
        reportOf(ahead);

        // task 0 contributed [1000, 2000): it can never join a builder whose lower is 1000
        Handle narrower = contribute(ORDERS, 1, 1000, 1500, 1);

        assertEquals(List.of(1), partitions(reportOf(narrower)));
        assertEquals(0, metrics.barrierTimeouts());
    }

    @Test
    void shouldGiveASecondContributionOfAPartitionItsOwnBatchAtTheBarrier() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        Handle first = contribute(ORDERS, 0, 0, 1000, 2);

        Handle again = contribute(ORDERS, 0, 0, 1000, 2);

        assertNotEquals(first.batchId(), again.batchId());
        assertEquals(List.of(0), partitions(reportOf(again)));
        assertInstanceOf(Outcome.Pending.class, coalescer.poll(first));
        Handle other = contribute(ORDERS, 1, 0, 1000, 2);
        assertEquals(first.batchId(), other.batchId());
        assertEquals(List.of(0, 1), partitions(reportOf(first)));
    }

    // ---- ownership ----

    @Test
    void shouldReportEachFinishedBatchToTheFirstPollerOnlyAndCoverTheOthers() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 4);
        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 1));
        }
        awaitCondition().until(() -> metrics.batchesBuilt() == 1);

        Outcome owner = coalescer.poll(handles.get(2));
        assertInstanceOf(Outcome.Report.class, owner);
        for (int p : List.of(0, 3)) {
            assertEquals(new Outcome.Covered(handles.get(2).batchId()), coalescer.poll(handles.get(p)));
        }
        assertEquals(1, coalescer.liveBatches(), "a participant still has to hear about the batch");
        assertEquals(new Outcome.Covered(handles.get(2).batchId()), coalescer.poll(handles.get(1)));

        assertEquals(0, coalescer.liveBatches());
        assertThrows(IllegalStateException.class, () -> coalescer.poll(handles.get(2)));
        assertThrows(IllegalStateException.class, () -> coalescer.poll(handles.get(0)));
        coalescer.abandon(handles.get(2));
        assertEquals(0, metrics.batchesAbandoned());
        assertEquals(0, coalescer.orphanedBatches());
    }

    @ParameterizedTest(name = "maybe written: {0}")
    @ValueSource(booleans = {false, true})
    void shouldFailEveryParticipantWhenABlobWriteFails(boolean maybeWritten) {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        blobs.store.failNextWrites(1, maybeWritten);
        List<Handle> handles = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            handles.add(contribute(ORDERS, p, 0, 1000, 2));
        }

        for (Handle h : handles) {
            assertInstanceOf(Outcome.Failed.class, outcomeOf(h));
        }
        assertEquals(1, metrics.batchesFailed());
        assertEquals(0, metrics.batchesBuilt());
        assertEquals(0, coalescer.liveBatches());

        List<Handle> again = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            again.add(contribute(ORDERS, p, 0, 1000, 2));
        }
        assertEquals(List.of(0, 1, 2), reportedPartitions(again));
    }

    @Test
    void shouldCountAnOrphanWhenABrokenOwnershipRuleLetsNobodyTakeAFinishedBatch() {
        coalescer = coalescer(BARRIER, BIG_PARTS, Long.MAX_VALUE).ownership((batch, polling) -> false)
            .shard(new ShardSink(ORDERS, ORDERS + "/", ORDERS + "-owner", metrics)).build();
        registerAll(ORDERS, 2);
        List<Handle> handles = List.of(contribute(ORDERS, 0, 0, 1000, 2), contribute(ORDERS, 1, 0, 1000, 2));

        for (Handle h : handles) {
            assertInstanceOf(Outcome.Covered.class, outcomeOf(h), "each is told another one reports it");
        }
        assertEquals(1, coalescer.orphanedBatches(), "nobody reported it: the detector fires");
        assertEquals(1, metrics.orphanedBatches());
        assertEquals(0, metrics.batchesAbandoned());
    }

    @Test
    void shouldNotCountAnOrphanWhenEveryParticipantLeftAFinishedBatch() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        List<Handle> handles = List.of(contribute(ORDERS, 0, 0, 1000, 2), contribute(ORDERS, 1, 0, 1000, 2));
        awaitCondition().until(() -> metrics.batchesBuilt() == 1);
        handles.forEach(coalescer::abandon);

        assertEquals(0, coalescer.orphanedBatches(), "abandoned (the tasks contribute again), not orphaned");
        assertEquals(1, metrics.batchesAbandoned());
        assertEquals(0, coalescer.liveBatches());
    }

    @Test
    void shouldRefuseASecondAppOfTheSameShardInOneJvmUntilTheFirstIsRemoved() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        ShardSink again = new ShardSink(ORDERS, ORDERS + "/", "test-consensus/" + ORDERS, new ShardMetrics(ORDERS));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> coalescer.addShard(again));
        assertTrue(refused.getMessage().contains("shard " + ORDERS + " already runs in this JVM"), refused.getMessage());
        coalescer.removeShard(ORDERS);
        coalescer.addShard(again);
    }

    @Test
    void shouldReportQueuedBytesAndLiveBatchesPerShard() {
        start(BARRIER, 1, Long.MAX_VALUE); // a part per update: each builder stops at its first (held) write
        coalescer.addShard(new ShardSink(PAYMENTS, PAYMENTS + "/", "test-consensus/" + PAYMENTS, new ShardMetrics(PAYMENTS)));
        registerAll(ORDERS, 2);
        blobs.hold();
        contribute(ORDERS, 0, 0, 1000, 3);
        contribute(ORDERS, 1, 0, 1000, 3);
        awaitCondition().until(() -> blobs.writesStarted() == 1);
        contribute(ORDERS, 0, 1000, 2000, 3); // its builder stops at the held write too: its bytes stay queued

        assertTrue(coalescer.queuedBytes(ORDERS) > 0);
        assertEquals(coalescer.queuedBytes(), coalescer.queuedBytes(ORDERS));
        assertEquals(0, coalescer.queuedBytes(PAYMENTS), "payments queues nothing");
        assertEquals(2, coalescer.liveBatches(ORDERS));
        assertEquals(0, coalescer.liveBatches(PAYMENTS));
        blobs.release();
        awaitCondition().until(() -> coalescer.queuedBytes(ORDERS) == 0);
    }

    @Test
    void shouldTellTheOtherParticipantsToContributeAgainWhenTheOwnerLeaves() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        Handle owner = contribute(ORDERS, 0, 0, 1000, 2);
        Handle covered = contribute(ORDERS, 1, 0, 1000, 2);
        Handle other = contribute(ORDERS, 2, 0, 1000, 2);
        assertInstanceOf(Outcome.Report.class, outcomeOf(owner));
        assertInstanceOf(Outcome.Covered.class, outcomeOf(covered));
        assertInstanceOf(Outcome.Covered.class, outcomeOf(other));
        assertEquals(Optional.empty(), coalescer.takeRestart(ORDERS, 1), "every participant is still here");

        coalescer.deregister(ORDERS, 0); // the owner leaves before its report is known to commit

        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 1));
        assertEquals(Optional.empty(), coalescer.takeRestart(ORDERS, 1), "taken once");
        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 2));
    }

    /**
     * Issue 12 item 13: a participant that is not the owner leaves. Its partition's next owner (in
     * another JVM) contributes the range again in batches with other partitions, and the batch it
     * left holds the partition too: where the appender needs both (each is the only one holding
     * some partition) they conflict, and no exact cover exists until the others here contribute
     * again without it. Before, only the owner's leaving told them; the rest waited for
     * {@code recontribute.timeout.ms}.
     */
    @Test
    void shouldTellTheOtherParticipantsToContributeAgainWhenAParticipantThatDidNotOwnTheBatchLeaves() {
        deliverOneBatchOfThreePartitions();

        coalescer.deregister(ORDERS, 2);

        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 0), "the owner too");
        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 1));
        assertEquals(Optional.empty(), coalescer.takeRestart(ORDERS, 2), "partition 2 left");
    }

    /** The same while the batch is still being written: whoever owns it later reports it with the partition that left. */
    @Test
    void shouldTellTheOtherParticipantsOfABatchStillBeingWrittenWhenOneLeaves() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        blobs.hold();
        contribute(ORDERS, 0, 0, 1000, 2);
        contribute(ORDERS, 1, 0, 1000, 2);
        contribute(ORDERS, 2, 0, 1000, 2);
        awaitCondition().until(() -> blobs.writesStarted() == 1);

        coalescer.deregister(ORDERS, 1);

        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 0));
        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 2));
        assertEquals(Optional.empty(), coalescer.takeRestart(ORDERS, 0), "taken once");
    }

    /**
     * An open barrier that a leaving partition joined takes no more joins: a task that joined it
     * later would not be told to contribute again, and its only copy of the range would hold the
     * partition that left (issue 12 item 13).
     */
    @Test
    void shouldCloseAnOpenBarrierThatALeavingPartitionJoined() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        Handle left = contribute(ORDERS, 0, 0, 1000, 2);
        contribute(ORDERS, 1, 0, 1000, 2);

        coalescer.deregister(ORDERS, 0);
        Handle late = contribute(ORDERS, 2, 0, 1000, 2);

        assertNotEquals(left.batchId(), late.batchId(), "partition 2's contribution is in a batch without partition 0");
        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 1));
    }

    @Test
    void shouldForgetARestartOfATaskThatLeftBeforeTakingIt() {
        deliverOneBatchOfThreePartitions();
        coalescer.deregister(ORDERS, 2); // partitions 0 and 1 are told to contribute again

        coalescer.deregister(ORDERS, 0); // 0 leaves without taking it (a rebalance revoking both)
        coalescer.register(ORDERS, 0); // and comes back: its new task starts from the sealed upper anyway

        assertEquals(Optional.empty(), coalescer.takeRestart(ORDERS, 0), "the old task's restart is moot");
        assertEquals(Optional.of(TimeRange.of(0, 1000)), coalescer.takeRestart(ORDERS, 1));
    }

    @Test
    void shouldFailTheBatchWhenItsBuilderThreadHitsAnError() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        blobs.throwOnNextWrite(new AssertionError("an Error, not an exception"));
        List<Handle> handles = List.of(contribute(ORDERS, 0, 0, 1000, 2), contribute(ORDERS, 1, 0, 1000, 2));

        for (Handle h : handles) {
            assertInstanceOf(Outcome.Failed.class, outcomeOf(h), "told, not left pending");
        }
        assertEquals(1, metrics.batchesFailed());
        assertEquals(0, coalescer.liveBatches());
        List<Handle> again = List.of(contribute(ORDERS, 0, 0, 1000, 2), contribute(ORDERS, 1, 0, 1000, 2));
        assertEquals(List.of(0, 1), reportedPartitions(again), "the builder threads still build");
    }

    @Test
    void shouldCoalesceTheContributionsThatFollowAFailedBarrierBatch() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        blobs.store.failNextWrites(1, false);
        List<Handle> failed = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            failed.add(contribute(ORDERS, p, 0, 1000, 2));
        }
        List<Handle> again = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            // as a Contributor does: told Failed, it rewinds and contributes again; the others, not yet
            // told, count as not passed (their contributions were in the failed batch)
            assertInstanceOf(Outcome.Failed.class, outcomeOf(failed.get(p)));
            coalescer.rewind(ORDERS, p, 0);
            again.add(contribute(ORDERS, p, 0, 1000, 2));
        }

        assertEquals(1, again.stream().map(Handle::batchId).distinct().count());
        assertEquals(List.of(0, 1, 2), partitions(reportOf(again.get(0))));
    }

    @Test
    void shouldFinishABarrierBatchOnlyOnceEveryChunkOfEveryContributionArrived() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        ContributionData first = contribution(ORDERS, 0, 0, 1000, 5);
        Handle chunked = coalescer.contribute(chunk(first, false)).orElseThrow();
        Handle whole = contribute(ORDERS, 1, 0, 1000, 3);

        // the barrier is closed (both joined), but partition 0's contribution is not complete
        awaitCondition().during(Duration.ofMillis(300)).until(() -> coalescer.poll(chunked) instanceof Outcome.Pending);
        assertTrue(coalescer.more(chunked, chunk(contribution(ORDERS, 0, 0, 1000, 4), false)));
        assertTrue(coalescer.more(chunked, chunk(contribution(ORDERS, 0, 0, 1000, 2), true)));

        Batch batch = reportOf(chunked);
        assertInstanceOf(Outcome.Covered.class, outcomeOf(whole));
        assertEquals(List.of(new Contribution(0, 0L, 1000L, 11L), new Contribution(1, 0L, 1000L, 3L)),
            batch.getContributions(), "a contribution counts the updates of all its chunks");
        assertEquals(14, batch.getUpdates());
        long read = batch.getParts().stream().mapToLong(p -> TestUpdates.read(blobs.get(p.getKey())).size()).sum();
        assertEquals(14, read, "every chunk's updates are in the parts");
    }

    @Test
    void shouldFailABatchWhoseContributorLeftBeforeItsLastChunk() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        Handle leaving = coalescer.contribute(chunk(contribution(ORDERS, 0, 0, 1000, 5), false)).orElseThrow();
        Handle staying = contribute(ORDERS, 1, 0, 1000, 3);

        coalescer.abandon(leaving);

        assertInstanceOf(Outcome.Failed.class, outcomeOf(staying),
            "without the rest of partition 0's range the batch cannot be finished");
        assertEquals(0, coalescer.liveBatches());
    }

    @Test
    void shouldRefuseAChunkOverTheQueueBoundAndTakeItLater() {
        start(NONE, 1, 1_500); // a part per update: the held store stops the builder in its first chunk
        coalescer.register(ORDERS, 0);
        blobs.hold();
        Handle h = coalescer.contribute(chunk(contribution(ORDERS, 0, 0, 1000, 40), false)).orElseThrow();
        ContributionData rest = chunk(contribution(ORDERS, 0, 0, 1000, 40), true);
        assertTrue(coalescer.queuedBytes() > 0);

        assertFalse(coalescer.more(h, rest), "the queue holds the first chunk: the second waits");
        blobs.release();
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertTrue(coalescer.more(h, rest));
        assertEquals(80, reportOf(h).getUpdates());
    }

    private ContributionData chunk(ContributionData c, boolean last) {
        ContributionData chunk = new ContributionData(c.shard(), c.partition(), c.range(), c.updates(),
            c.closedAtMs(), last);
        rowsOf.put(chunk, rowsOf.get(c));
        return chunk;
    }

    @Test
    void shouldFailTheContributionsQueuedBehindAFailedWrite() {
        start(BEST_EFFORT, 1, Long.MAX_VALUE);
        blobs.hold();
        blobs.store.failNextWrites(1, false);
        Handle first = contribute(ORDERS, 0, 0, 1000, 2);
        awaitCondition().until(() -> blobs.writesStarted() == 1);
        Handle second = contribute(ORDERS, 1, 0, 1000, 2);
        Handle third = contribute(ORDERS, 2, 0, 1000, 2);

        blobs.release();

        for (Handle h : List.of(first, second, third)) {
            assertInstanceOf(Outcome.Failed.class, outcomeOf(h));
        }
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertEquals(0, coalescer.liveBatches());
        assertEquals(1, metrics.batchesFailed());
        assertEquals(1, blobs.writesStarted(), "nothing is written after the failure");
    }

    @Test
    void shouldDropAFinishedBatchThatEveryParticipantAbandoned() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        Handle zero = contribute(ORDERS, 0, 0, 1000, 1);
        Handle one = contribute(ORDERS, 1, 0, 1000, 1);
        awaitCondition().until(() -> metrics.batchesBuilt() == 1);
        assertEquals(1, coalescer.liveBatches());

        coalescer.abandon(zero);
        assertEquals(1, coalescer.liveBatches());
        coalescer.abandon(one);

        assertEquals(1, metrics.batchesAbandoned());
        assertEquals(0, coalescer.orphanedBatches());
        assertEquals(0, metrics.orphanedBatches());
        assertEquals(0, coalescer.liveBatches());
    }

    @Test
    void shouldDropABatchAbandonedBeforeItFinished() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        coalescer.abandon(contribute(ORDERS, 0, 0, 1000, 1));
        coalescer.abandon(contribute(ORDERS, 1, 0, 1000, 1));

        awaitCondition().until(() -> coalescer.liveBatches() == 0);
        assertEquals(1, metrics.batchesBuilt());
        assertEquals(1, metrics.batchesAbandoned());
        assertEquals(0, coalescer.orphanedBatches());
    }

    @Test
    void shouldReportToTheParticipantThatStayedWhenAnotherAbandoned() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        Handle leaving = contribute(ORDERS, 0, 0, 1000, 1);
        coalescer.abandon(leaving);
        Handle staying = contribute(ORDERS, 1, 0, 1000, 1);

        assertEquals(List.of(0, 1), partitions(reportOf(staying)));
        assertEquals(0, metrics.batchesAbandoned());
        assertEquals(0, coalescer.liveBatches());
    }

    // ---- back-pressure ----

    @Test
    void shouldRefuseContributionsOverTheQueuedBytesBoundUntilTheBuilderDrains() {
        ContributionData first = contribution(ORDERS, 0, 0, 1000, 3);
        ContributionData second = contribution(ORDERS, 1, 0, 1000, 3);
        start(NONE, 1, first.approximateBytes() + 10);
        blobs.hold();
        Handle firstHandle = coalescer.contribute(first).orElseThrow();
        awaitCondition().until(() -> blobs.writesStarted() == 1);
        assertEquals(first.approximateBytes(), coalescer.queuedBytes());

        assertEquals(Optional.empty(), coalescer.contribute(second));
        assertEquals(Optional.empty(), coalescer.contribute(second));
        assertEquals(2, metrics.builderRefusals());

        blobs.release();
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        Handle secondHandle = coalescer.contribute(second).orElseThrow();
        assertEquals(List.of(0), partitions(reportOf(firstHandle)));
        assertEquals(List.of(1), partitions(reportOf(secondHandle)));
    }

    @Test
    void shouldTakeAContributionBiggerThanTheBoundWhenNothingIsQueued() {
        start(NONE, BIG_PARTS, 1);

        Handle big = contribute(ORDERS, 0, 0, 1000, 5);

        assertEquals(5, reportOf(big).getUpdates());
    }

    // ---- parts ----

    @Test
    void shouldCutPartsAtTheTargetSizeAndWriteEveryPartReadably() {
        long target = 200;
        start(BARRIER, target, Long.MAX_VALUE);
        registerAll(ORDERS, 2);
        ContributionData zero = contribution(ORDERS, 0, 1000, 2000, 40);
        ContributionData one = contribution(ORDERS, 1, 1000, 2000, 25);
        coalescer.contribute(zero).orElseThrow();
        Handle owner = coalescer.contribute(one).orElseThrow();

        Batch batch = reportOf(owner);

        List<Update> updates = new ArrayList<>(zero.updates());
        updates.addAll(one.updates());
        List<GenericRecord> rows = new ArrayList<>(rowsOf.get(zero));
        rows.addAll(rowsOf.get(one));
        assertTrue(batch.getParts().size() > 2, "parts: " + batch.getParts().size());
        List<ReadUpdate> read = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < batch.getParts().size(); i++) {
            Part part = batch.getParts().get(i);
            byte[] blob = blobs.get(part.getKey());
            assertTrue(part.getKey().startsWith(ORDERS + "/"), part.getKey());
            assertEquals(blob.length, part.getBytes());
            assertEquals(schemaId, part.getSchemaId());
            assertEquals(Integer.toString(schemaId), TestUpdates.meta(blob, PartEncoder.META_SCHEMA_ID));
            assertEquals(ORDERS, TestUpdates.meta(blob, PartEncoder.META_SHARD));
            assertEquals("1000", TestUpdates.meta(blob, PartEncoder.META_LOWER));
            assertEquals("2000", TestUpdates.meta(blob, PartEncoder.META_UPPER));
            assertEquals(batch.getBatchId(), TestUpdates.meta(blob, PartEncoder.META_BATCH));
            List<ReadUpdate> inPart = TestUpdates.read(blob);
            assertEquals(inPart.size(), part.getUpdates());
            long encoded = 0;
            for (int u = read.size(); u < read.size() + inPart.size(); u++) {
                encoded += encodedSize(updates.get(u));
            }
            long lastUpdate = encodedSize(updates.get(read.size() + inPart.size() - 1));
            if (i < batch.getParts().size() - 1) {
                assertTrue(encoded >= target && encoded - lastUpdate < target,
                    "part " + i + " holds " + encoded + " bytes, cut at " + target);
            }
            read.addAll(inPart);
            bytes += blob.length;
        }
        assertEquals(TestUpdates.expected(rows, updates), read);
        assertEquals(65, batch.getUpdates());
        assertEquals(bytes, batch.getBytes());
        assertEquals(List.of(schemaId), batch.getSchemaIds());
        assertEquals(List.of(new Contribution(0, 1000L, 2000L, 40L), new Contribution(1, 1000L, 2000L, 25L)),
            batch.getContributions());
        assertEquals(batch.getParts().size(), metrics.partsWritten());
        assertEquals(bytes, metrics.partBytes());
    }

    @Test
    void shouldWriteEachSchemasUpdatesToPartsCarryingThatSchemaId() {
        Schema evolved = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
            .requiredLong("id").requiredString("category").requiredLong("amount")
            .optionalString("note").endRecord();
        int evolvedId = schemas.register("orders-value", evolved);
        start(NONE, BIG_PARTS, Long.MAX_VALUE);
        GenericRecord oldRow = TestUpdates.row(1, "books", 10);
        GenericRecord newRow = new GenericData.Record(evolved);
        newRow.put("id", 2L);
        newRow.put("category", "toys");
        newRow.put("amount", 20L);
        newRow.put("note", "evolved");
        ContributionData mixed = new ContributionData(ORDERS, 0, new TimeRange(0, 1000), List.of(
            TestUpdates.update(schemaId, oldRow, 10, 1), TestUpdates.update(evolvedId, newRow, 20, -1)), 0);

        Batch batch = reportOf(coalescer.contribute(mixed).orElseThrow());

        assertEquals(List.of(schemaId, evolvedId), batch.getSchemaIds());
        assertEquals(2, batch.getParts().size());
        for (Part part : batch.getParts()) {
            byte[] blob = blobs.get(part.getKey());
            assertEquals(Integer.toString(part.getSchemaId()), TestUpdates.meta(blob, PartEncoder.META_SCHEMA_ID));
            GenericRecord expected = part.getSchemaId() == schemaId ? oldRow : newRow;
            assertEquals(PartEncoder.updateSchema(expected.getSchema()), TestUpdates.schema(blob));
            assertEquals(List.of(expected), TestUpdates.read(blob).stream().map(ReadUpdate::row).toList());
        }
    }

    // ---- shards ----

    @Test
    void shouldKeepTwoShardsApartInBuildersAndMetrics() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        ShardMetrics paymentsMetrics = new ShardMetrics(PAYMENTS);
        coalescer.addShard(new ShardSink(PAYMENTS, PAYMENTS + "/", "test-consensus/" + PAYMENTS,
            paymentsMetrics));
        registerAll(ORDERS, 2);
        registerAll(PAYMENTS, 2);
        Handle order0 = contribute(ORDERS, 0, 0, 1000, 1);
        Handle payment0 = contribute(PAYMENTS, 0, 0, 1000, 1);
        assertNotEquals(order0.batchId(), payment0.batchId());

        contribute(ORDERS, 1, 0, 1000, 1);

        Batch orders = reportOf(order0);
        assertEquals(ORDERS, orders.getShard());
        assertEquals(List.of(0, 1), partitions(orders));
        assertTrue(orders.getParts().stream().allMatch(p -> p.getKey().startsWith(ORDERS + "/")));
        awaitCondition().until(() -> coalescer.queuedBytes() == 0);
        assertInstanceOf(Outcome.Pending.class, coalescer.poll(payment0));
        assertEquals(1, metrics.batchesBuilt());
        assertEquals(0, paymentsMetrics.batchesBuilt());

        time.sleep(BARRIER_TIMEOUT_MS);
        coalescer.tick();

        Batch payments = reportOf(payment0);
        assertEquals(PAYMENTS, payments.getShard());
        assertEquals(List.of(0), partitions(payments));
        assertTrue(payments.getParts().stream().allMatch(p -> p.getKey().startsWith(PAYMENTS + "/")));
        assertEquals(1, paymentsMetrics.barrierTimeouts());
        assertEquals(0, metrics.barrierTimeouts());
        assertEquals(1, paymentsMetrics.batchesBuilt());
        assertEquals(1, metrics.batchesBuilt());
        assertEquals(2, metrics.participants());
        assertEquals(1, paymentsMetrics.participants());
        assertEquals(1, metrics.partsWritten());
        assertEquals(1, paymentsMetrics.partsWritten());
    }

    @Test
    void shouldRefuseAContributionOfAShardItWasNotGiven() {
        start(BEST_EFFORT, BIG_PARTS, Long.MAX_VALUE);

        assertThrows(IllegalStateException.class, () -> coalescer.contribute(contribution(PAYMENTS, 0, 0, 1000, 1)));
    }

    // ---- helpers ----

    /** Partitions 0, 1 and 2 contribute [0, 1000) to one barrier batch, delivered to partition 0. */
    private void deliverOneBatchOfThreePartitions() {
        start(BARRIER, BIG_PARTS, Long.MAX_VALUE);
        registerAll(ORDERS, 3);
        Handle owner = contribute(ORDERS, 0, 0, 1000, 2);
        contribute(ORDERS, 1, 0, 1000, 2);
        contribute(ORDERS, 2, 0, 1000, 2);
        assertInstanceOf(Outcome.Report.class, outcomeOf(owner));
    }

    private void start(CoalescingMode mode, long targetBytes, long maxQueuedBytes) {
        coalescer = coalescer(mode, targetBytes, maxQueuedBytes).shard(TestCoalescer.sink(ORDERS, metrics)).build();
    }

    /** This test's fakes and clock, a 5 s barrier, two builder threads. */
    private TestCoalescer coalescer(CoalescingMode mode, long targetBytes, long maxQueuedBytes) {
        return TestCoalescer.of(mode).blobs(blobs).schemas(schemas).time(time).parts(targetBytes)
            .settings(s -> s.withBarrierTimeout(Duration.ofMillis(BARRIER_TIMEOUT_MS)).withMaxQueuedBytes(maxQueuedBytes)
                .withThreads(2));
    }

    private void registerAll(String shard, int partitions) {
        for (int p = 0; p < partitions; p++) {
            coalescer.register(shard, p);
        }
    }

    private Handle contribute(String shard, int partition, long lower, long upper, int updates) {
        return coalescer.contribute(contribution(shard, partition, lower, upper, updates)).orElseThrow();
    }

    /** {@code n} updates of distinct rows, times within the range. */
    private ContributionData contribution(String shard, int partition, long lower, long upper, int n) {
        List<GenericRecord> rows = new ArrayList<>();
        List<Update> updates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = nextRowId++;
            GenericRecord row = TestUpdates.row(id, "category-" + id % 7, id * 31);
            rows.add(row);
            updates.add(TestUpdates.update(schemaId, row, lower + i % (upper - lower), i % 3 == 0 ? -1 : i + 1));
        }
        ContributionData c = new ContributionData(shard, partition, new TimeRange(lower, upper), updates, time.milliseconds());
        rowsOf.put(c, rows);
        return c;
    }

    private static ConditionFactory awaitCondition() {
        return await().atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
    }

    /** Polls until the handle is answered. */
    private Outcome outcomeOf(Handle h) {
        AtomicReference<Outcome> answer = new AtomicReference<>();
        awaitCondition().until(() -> {
            Outcome o = coalescer.poll(h);
            if (o instanceof Outcome.Pending) {
                return false;
            }
            answer.set(o);
            return true;
        });
        return answer.get();
    }

    private Batch reportOf(Handle h) {
        Outcome o = outcomeOf(h);
        return assertInstanceOf(Outcome.Report.class, o, "outcome of batch " + h.batchId()).batch();
    }

    /**
     * Polls every handle to its answer and returns the partitions of the batches reported, sorted;
     * asserts every handle is covered by a batch that one of them reported.
     */
    private List<Integer> reportedPartitions(List<Handle> handles) {
        List<Integer> partitions = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        Set<String> covered = new HashSet<>();
        for (Handle h : handles) {
            Outcome o = outcomeOf(h);
            if (o instanceof Outcome.Report report) {
                assertTrue(reported.add(report.batch().getBatchId()), "reported twice: " + h.batchId());
                partitions.addAll(partitions(report.batch()));
            } else {
                assertEquals(new Outcome.Covered(h.batchId()), o);
                covered.add(h.batchId());
            }
        }
        assertTrue(reported.containsAll(covered), "covered by a batch nobody reported");
        return partitions.stream().sorted().toList();
    }

    private void assertAllPending(List<Handle> handles) {
        for (Handle h : handles) {
            assertInstanceOf(Outcome.Pending.class, coalescer.poll(h), "batch " + h.batchId());
        }
    }

    /** The partitions a batch holds, in join order; asserts none is there twice. */
    private static List<Integer> partitions(Batch batch) {
        List<Integer> partitions = batch.getContributions().stream().map(Contribution::getPartition).toList();
        assertEquals(partitions.size(), new HashSet<>(partitions).size(), "a partition twice in " + partitions);
        return partitions;
    }

    /** What {@link PartWriter} counts for one update: the row's binary, the time and the diff. */
    private static long encodedSize(Update u) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            encoder.writeFixed(u.row());
            encoder.writeLong(u.time());
            encoder.writeLong(u.diff());
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.size();
    }
}
