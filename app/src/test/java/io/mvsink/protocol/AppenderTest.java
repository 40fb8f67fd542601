package io.mvsink.protocol;

import static io.mvsink.topology.Batches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The appender's decisions without Kafka: an in-memory ledger, a fake probe and explicit times.
 * The adapter's tests ({@code topology.Appender*Test}, {@code BatchAgeBoundTest}) drive the same
 * decisions through the processor and its stores.
 */
class AppenderTest {
    private static final long WIDTH = 1000;
    private static final long GRACE_MS = 600_000;
    private static final long NOW = 1_700_000_000_000L;
    private static final int PARTITIONS = 2;

    private final FakeLedger ledger = new FakeLedger();
    private CompletableFuture<Integer> answer = CompletableFuture.completedFuture(PARTITIONS);
    private int probes;
    private final PartitionCountProbe probe = new PartitionCountProbe() {
        @Override
        public String topic() {
            return "c";
        }

        @Override
        public int partitions() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Integer> partitionsAsync() {
            probes++;
            return answer;
        }
    };
    private final Appender appender = new Appender("s", ledger,
        new Appender.Settings(GRACE_MS, -1, WIDTH, RecordBound.DEFAULT), probe);

    @Test
    void shouldRejectABatchThatCanNeverBePartOfACover() {
        assertRejected(batch(0, WIDTH), "batch holds no contribution");
        assertRejected(batch(0, WIDTH, 0, 0), "batch holds partition 0 twice or out of range");
        assertRejected(batch(0, WIDTH, 0, PARTITIONS), "batch holds partition 2 twice or out of range");
        assertRejected(batch(WIDTH, WIDTH, 0, 1), "empty contribution range for partition 0");
        ledger.state.setUpper(2 * WIDTH);
        assertRejected(batch(WIDTH, 3 * WIDTH, 0, 1), "stale: contribution of partition 0 starts at 1000 below the shard's upper 2000");
    }

    @Test
    void shouldCallABatchRedundantOnlyIfEveryContributionLiesBelowTheUpper() {
        assertTrue(Appender.redundant(batch(0, WIDTH, 0, 1), WIDTH));
        assertTrue(Appender.redundant(batch(0, WIDTH, 0), 2 * WIDTH));
        assertFalse(Appender.redundant(batch(0, 2 * WIDTH, 0, 1), WIDTH), "reaches above the upper");
        assertFalse(Appender.redundant(batch(WIDTH, 2 * WIDTH, 0), WIDTH), "wholly above the upper");
        assertFalse(Appender.redundant(batch(0, WIDTH), WIDTH), "holds no contribution");
    }

    @Test
    void shouldPassOverAPendingCopyWhoseRangeTheCoverSeals() {
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        Batch copy = ledger.add(batch(WIDTH / 2, WIDTH, 1), NOW);
        Appender.Append append = assertInstanceOf(Appender.Append.class, appender.seal(NOW));
        assertEquals(List.of(copy), append.unusable());
        assertTrue(Appender.redundant(copy, append.cover().upper()));
    }

    @Test
    void shouldKeepAValidBatchWithTheEarlierOfItsFirstWriteAndItsClose() {
        Batch batch = batch(0, WIDTH, 0, 1);
        batch.setClosedAtMs(NOW - 10);
        Appender.Accept accepted = assertInstanceOf(Appender.Accept.class, appender.report(batch, NOW - 50, NOW));
        assertEquals(NOW - 50, accepted.writtenSince());
        assertEquals(NOW - 10, Appender.writtenSince(NOW - 10, 0));
        assertEquals(NOW - 10, Appender.writtenSince(NOW - 10, NOW - 5));
        assertEquals(NOW - 5, Appender.writtenSince(0, NOW - 5));
    }

    @Test
    void shouldRejectABatchWrittenMoreThanHalfTheGraceAgo() {
        Batch batch = batch(0, WIDTH, 0, 1);
        batch.setClosedAtMs(NOW);
        Appender.Reject rejected = assertInstanceOf(Appender.Reject.class,
            appender.report(batch, NOW - GRACE_MS / 2 - 1, NOW));
        assertTrue(rejected.why().contains("its blobs may be collected"), rejected.why());
        assertInstanceOf(Appender.Accept.class, appender.report(batch, NOW - GRACE_MS / 2, NOW));
    }

    @Test
    void shouldExpirePendingBatchesThatBecameTooOldWhileWaiting() {
        Batch waiting = ledger.add(batch(0, WIDTH, 0), NOW);
        ledger.add(batch(0, WIDTH, 1), NOW + 1);
        assertEquals(List.of(), appender.expired(NOW + GRACE_MS / 2));
        List<Appender.Reject> expired = appender.expired(NOW + GRACE_MS / 2 + 1);
        assertEquals(1, expired.size());
        assertEquals(waiting, expired.get(0).batch());
    }

    @Test
    void shouldNotSealWithoutEveryPartition() {
        ledger.add(batch(0, WIDTH, 0), NOW);
        assertInstanceOf(Appender.NoCover.class, appender.seal(NOW));
        assertEquals(0, probes, "no cover: no probe");
    }

    @Test
    void shouldAppendTheCoverAtTheNextSeqnoFromTheShardsUpper() {
        ledger.state.setUpper(WIDTH);
        ledger.state.setSeqno(7);
        Batch first = ledger.add(batch(WIDTH, 2 * WIDTH, 0, 1), NOW);
        ledger.add(batch(2 * WIDTH, 3 * WIDTH, 0, 1), NOW);
        Appender.Append append = assertInstanceOf(Appender.Append.class, appender.seal(NOW));
        StateDiff diff = append.send().diff();
        assertEquals(8, diff.getSeqno(), "seqno + 1");
        assertEquals(WIDTH, diff.getLower(), "lower = upper");
        assertEquals(2 * WIDTH, diff.getUpper(), "one step of the cover");
        assertEquals(List.of(first), diff.getAdded());
        assertEquals(1, append.intervals());
        assertEquals(1, probes, "one probe per pass");
    }

    @Test
    void shouldPassOverPendingBatchesTheSealMakesStale() {
        Batch cover = ledger.add(batch(0, WIDTH, 0, 1), NOW);
        Batch stale = ledger.add(batch(0, WIDTH, 0), NOW);
        Appender.Append append = assertInstanceOf(Appender.Append.class, appender.seal(NOW));
        assertEquals(List.of(cover), append.cover().batches());
        assertEquals(List.of(stale), append.unusable());
        assertEquals(ShardState.blobKeys(stale), append.send().diff().getGarbageBlobs());
    }

    @Test
    void shouldWaitForThePartitionCountAndSealOnItsAnswer() {
        answer = new CompletableFuture<>();
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        assertInstanceOf(Appender.Wait.class, appender.seal(NOW));
        assertTrue(appender.deferred());
        answer.complete(PARTITIONS);
        assertInstanceOf(Appender.Append.class, appender.seal(NOW));
        assertEquals(1, probes, "the answer asked while the cover stood");
    }

    @Test
    void shouldStopOnceThePartitionCountChanged() {
        answer = CompletableFuture.completedFuture(PARTITIONS + 1);
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        Appender.PartitionsChanged changed = assertInstanceOf(Appender.PartitionsChanged.class, appender.seal(NOW));
        assertEquals(new Appender.PartitionsChanged("c", PARTITIONS, PARTITIONS + 1), changed);
    }

    @Test
    void shouldNotSealWhileTheCountCannotBeVerified() {
        answer = CompletableFuture.failedFuture(new IllegalStateException("no answer"));
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        assertInstanceOf(Appender.Wait.class, appender.seal(NOW));
        assertTrue(appender.deferred());
    }

    @Test
    void shouldRefuseToSealABatchTooOldForTheGrace() {
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> appender.seal(NOW + GRACE_MS));
        assertTrue(e.getMessage().startsWith("shard s: refusing to seal batch"), e.getMessage());
    }

    @Test
    void shouldKeepLookingWhileACoverStands() {
        ledger.add(batch(0, WIDTH, 0, 1), NOW);
        assertInstanceOf(Appender.Append.class, appender.seal(NOW));
        ledger.pending.clear();
        assertEquals(Optional.empty(), appender.next(NOW));
    }

    @Test
    void shouldNotCommitAMergeOfBatchesNoLongerLiveOrTooOld() {
        Batch merged = batch(0, WIDTH, 0, 1);
        merged.setClosedAtMs(NOW);
        assertEquals(new Appender.Conflict("its batches changed meanwhile"),
            appender.merge(merged, List.of("gone"), NOW));
        assertEquals(new Appender.Conflict("too old"), appender.merge(merged, List.of(), NOW + GRACE_MS));
        Appender.Compact compact = assertInstanceOf(Appender.Compact.class, appender.merge(merged, List.of(), NOW));
        assertEquals(compact.send().diff().getLower(), compact.send().diff().getUpper(), "upper unchanged");
        assertEquals(1, compact.send().diff().getSeqno());
    }

    private void assertRejected(Batch batch, String why) {
        Appender.Verdict verdict = appender.report(batch, 0, NOW);
        assertEquals(new Appender.Reject(batch, why), verdict);
    }

    /** The appender's store, in memory. */
    private static final class FakeLedger implements Appender.Ledger {
        final AppenderState state = new AppenderState("s", 0L, 0L, PARTITIONS, new ArrayList<>(), 0L, 0L, "");
        final Map<String, Batch> pending = new LinkedHashMap<>();
        final Map<String, Long> since = new HashMap<>();
        final ShardState model = ShardState.of(StateRollup.newBuilder().setShard("s").setSeqno(0L).setUpper(0L)
            .setSince(0L).setPartitionCount(PARTITIONS).setBatches(List.of()).setRetired(List.of())
            .setRolledUpAtMs(0L).setLocation("").build());

        Batch add(Batch batch, long writtenSince) {
            pending.put(batch.getBatchId(), batch);
            since.put(batch.getBatchId(), writtenSince);
            return batch;
        }

        @Override
        public AppenderState state() {
            return state;
        }

        @Override
        public Collection<Batch> pending() {
            return pending.values();
        }

        @Override
        public long writtenSince(Batch batch) {
            return since.getOrDefault(batch.getBatchId(), batch.getClosedAtMs());
        }

        @Override
        public ShardGrace grace() {
            return null;
        }

        @Override
        public ShardState model() {
            return model;
        }
    }
}
