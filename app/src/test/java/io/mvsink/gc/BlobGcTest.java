package io.mvsink.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.RetiredBlob;
import io.mvsink.avro.StateRollup;
import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class BlobGcTest {
    private static final long GRACE = 60_000;
    private static final String PREFIX = "orders/";
    private static final String CLUSTER = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final String OTHER_CLUSTER = "q1Sh-9_ISia_zwGINzRvyQ";
    static final BlobOwner OWNER = new BlobOwner(CLUSTER, "blue-consensus", "orders");
    private static final String OTHER_OWNER = new BlobOwner(CLUSTER, "green-consensus", "orders").value();

    private final MockTime time = new MockTime(0, 1_700_000_000_000L, 0);
    private final InMemoryBlobStore store = new InMemoryBlobStore(clockOf(time));

    @Test
    void shouldNeverDeleteAReferencedBlobHoweverOld() {
        put("orders/live-0000.avro");
        time.sleep(100 * GRACE);

        GcResult result = gc(store).run(state(List.of("orders/live-0000.avro"), Map.of()), time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.referenced());
        assertTrue(exists("orders/live-0000.avro"));
    }

    @Test
    void shouldKeepABlobRetiredNoLongerThanTheGraceAgo() {
        put("orders/retired-0000.avro");
        time.sleep(10 * GRACE);
        long retiredAt = time.milliseconds() - GRACE; // exactly the grace ago: still protected

        GcResult result = gc(store).run(state(List.of(), Map.of("orders/retired-0000.avro", retiredAt)),
            time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.retiredProtected());
        assertTrue(exists("orders/retired-0000.avro"));
    }

    @Test
    void shouldDeleteABlobRetiredLongerThanTheGraceAgo() {
        put("orders/retired-0000.avro");
        time.sleep(10 * GRACE);
        long retiredAt = time.milliseconds() - GRACE - 1;

        GcResult result = gc(store).run(state(List.of(), Map.of("orders/retired-0000.avro", retiredAt)),
            time.milliseconds(), false);

        assertEquals(List.of("orders/retired-0000.avro"), result.deleted());
        assertFalse(exists("orders/retired-0000.avro"));
    }

    @Test
    void shouldKeepAnUnreferencedBlobNoOlderThanTheGrace() {
        put("orders/young-0000.avro");
        time.sleep(GRACE); // exactly the grace old: kept

        GcResult result = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.youngProtected());
        assertTrue(exists("orders/young-0000.avro"));
    }

    @Test
    void shouldDeleteAnUnreferencedBlobOlderThanTheGrace() {
        put("orders/leaked-0000.avro", 7);
        time.sleep(GRACE + 1);

        GcResult result = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of("orders/leaked-0000.avro"), result.deleted());
        assertEquals(7, result.bytesFreed());
        assertEquals(GcResult.Outcome.COMPLETE, result.outcome());
        assertFalse(exists("orders/leaked-0000.avro"));
    }

    @Test
    void shouldNeverDeleteAnotherOwnersBlobHoweverOldAndUnreferenced() {
        store.putIfAbsent("orders/green-0000.avro", new byte[3], OTHER_OWNER);
        put("orders/leaked-0000.avro");
        time.sleep(100 * GRACE);

        GcResult result = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of("orders/leaked-0000.avro"), result.deleted());
        assertEquals(1, result.foreign());
        assertTrue(exists("orders/green-0000.avro"), "another app's part under the same prefix is never touched");
        assertTrue(result.summary().contains("other owners' 1"), result.summary());
    }

    @Test
    void shouldKeepAnUnownedBlobUnlessClaimed() {
        store.putIfAbsent("orders/old-0000.avro", new byte[3], null);
        time.sleep(100 * GRACE);

        GcResult kept = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);
        assertEquals(List.of(), kept.deleted());
        assertEquals(1, kept.unowned());
        assertTrue(exists("orders/old-0000.avro"), "the app's own gc keeps blobs written before owners");

        GcResult claimed = gc(store).claimUnowned().run(state(List.of(), Map.of()), time.milliseconds(), false);
        assertEquals(List.of("orders/old-0000.avro"), claimed.deleted());
        assertEquals(0, claimed.unowned());
    }

    @Test
    void shouldNeverDeleteTheSameAppsBlobsOfAnotherKafkaCluster() {
        // one app (application id, consensus topic, shard, prefix) on two clusters sharing a container
        BlobOwner west = new BlobOwner(OTHER_CLUSTER, OWNER.consensusTopic(), OWNER.shard());
        put("orders/east-leaked-0000.avro");
        store.putIfAbsent("orders/west-leaked-0000.avro", new byte[3], west.value());
        time.sleep(100 * GRACE);

        GcResult east = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);
        assertEquals(List.of("orders/east-leaked-0000.avro"), east.deleted());
        assertEquals(1, east.foreign());
        assertTrue(exists("orders/west-leaked-0000.avro"), "the other cluster's part, unreferenced here, is kept");

        put("orders/east-live-0000.avro");
        time.sleep(100 * GRACE);
        GcResult westGc = new BlobGc(store, PREFIX, west, GRACE, time).run(state(List.of(), Map.of()),
            time.milliseconds(), false);
        assertEquals(List.of("orders/west-leaked-0000.avro"), westGc.deleted());
        assertEquals(1, westGc.foreign());
        assertTrue(exists("orders/east-live-0000.avro"));
    }

    @Test
    void shouldKeepABlobOfTheLegacyOwnerWithoutClusterUnlessClaimed() {
        // what versions before issue 21 wrote: <consensus topic>/<shard>, no cluster id
        store.putIfAbsent("orders/legacy-0000.avro", new byte[3], "blue-consensus/orders");
        store.putIfAbsent("orders/green-legacy-0000.avro", new byte[3], "green-consensus/orders");
        time.sleep(100 * GRACE);

        GcResult kept = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);
        assertEquals(List.of(), kept.deleted());
        assertEquals(1, kept.unowned(), "the shard's legacy blob cannot be told from another cluster's: kept");
        assertEquals(1, kept.foreign(), "another app's legacy blob");
        assertTrue(exists("orders/legacy-0000.avro"));

        GcResult claimed = gc(store).claimUnowned().run(state(List.of(), Map.of()), time.milliseconds(), false);
        assertEquals(List.of("orders/legacy-0000.avro"), claimed.deleted());
        assertEquals(1, claimed.foreign(), "claiming takes the shard's legacy owner, not another app's");
        assertTrue(exists("orders/green-legacy-0000.avro"));
    }

    @Test
    void shouldNeverDeleteAReferencedUnownedBlobEvenWhenClaimingUnowned() {
        store.putIfAbsent("orders/old-0000.avro", new byte[3], null);
        time.sleep(100 * GRACE);

        GcResult result = gc(store).claimUnowned().run(state(List.of("orders/old-0000.avro"), Map.of()),
            time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.referenced());
        assertTrue(exists("orders/old-0000.avro"));
    }

    @Test
    void shouldClassifyEveryListedBlobOnce() {
        put("orders/leaked-0000.avro");
        put("orders/live-0000.avro");
        put("orders/retired-0000.avro");
        store.putIfAbsent("orders/green-0000.avro", new byte[3], OTHER_OWNER);
        store.putIfAbsent("orders/old-0000.avro", new byte[3], null);
        time.sleep(GRACE + 1);
        put("orders/young-0000.avro");
        ShardState state = state(List.of("orders/live-0000.avro"),
            Map.of("orders/retired-0000.avro", time.milliseconds()));

        GcResult result = gc(store).run(state, time.milliseconds(), false);

        assertEquals(new GcResult(false, GRACE, 6, 1, 1, 1, 1, 1, 1, List.of("orders/leaked-0000.avro"), 3, 0,
            GcResult.Outcome.COMPLETE), result);
    }

    @Test
    void shouldDeleteNothingInADryRunButReportWhatARunWouldDelete() {
        put("orders/leaked-0001.avro");
        put("orders/leaked-0002.avro");
        put("orders/live-0000.avro");
        time.sleep(GRACE + 1);
        put("orders/young-0000.avro");
        ShardState state = state(List.of("orders/live-0000.avro"), Map.of());
        List<String> before = keys(store.list(""));

        GcResult dry = gc(store).run(state, time.milliseconds(), true);

        assertEquals(before, keys(store.list("")), "a dry run deletes nothing");
        assertTrue(dry.dryRun());
        GcResult real = gc(store).run(state, time.milliseconds(), false);
        assertEquals(List.of("orders/leaked-0001.avro", "orders/leaked-0002.avro"), dry.deleted());
        assertEquals(real.deleted(), dry.deleted());
        assertEquals(real.bytesFreed(), dry.bytesFreed());
    }

    @Test
    void shouldNeverTouchKeysOutsideThePrefix() {
        put("orders/leaked-0000.avro");
        put("orders-eu/leaked-0000.avro");
        put("ordersx");
        put("other/leaked-0000.avro");
        time.sleep(GRACE + 1);

        GcResult result = gc(store).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of("orders/leaked-0000.avro"), result.deleted());
        assertEquals(List.of("orders-eu/leaked-0000.avro", "other/leaked-0000.avro", "ordersx").stream().sorted()
            .toList(), keys(store.list("")));
    }

    @Test
    void shouldNotTouchAKeyOutsideThePrefixEvenIfTheStoreListsIt() {
        put("orders/leaked-0000.avro");
        put("other/leaked-0000.avro");
        time.sleep(GRACE + 1);
        BlobStore listsEverything = new ForwardingBlobStore(store) {
            @Override
            public List<BlobInfo> list(String prefix) {
                return delegate.list("");
            }
        };

        GcResult result = gc(listsEverything).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of("orders/leaked-0000.avro"), result.deleted());
        assertEquals(1, result.listed());
        assertTrue(exists("other/leaked-0000.avro"));
    }

    @Test
    void shouldStopDeletingOnceTheStateIsOlderThanAQuarterOfTheGrace() {
        for (int i = 0; i < 6; i++) {
            put("orders/leaked-000" + i + ".avro");
        }
        time.sleep(GRACE + 1);
        long readAt = time.milliseconds();
        BlobStore slowDeletes = new ForwardingBlobStore(store) {
            @Override
            public boolean delete(String key) {
                time.sleep(GRACE / 10);
                return delegate.delete(key);
            }
        };

        GcResult result = gc(slowDeletes).run(state(List.of(), Map.of()), readAt, false);

        // deletes start at readAt + 0, 0.1, 0.2 grace; the fourth would start at 0.3 grace > grace/4
        assertEquals(3, result.deleted().size());
        assertEquals(6, result.candidates());
        assertEquals(GcResult.Outcome.STALE_STATE, result.outcome());
        assertTrue(result.aborted());
        assertEquals(3, store.list(PREFIX).size());
    }

    @Test
    void shouldDeleteNothingWithAStateReadMoreThanAQuarterOfTheGraceAgo() {
        put("orders/leaked-0000.avro");
        time.sleep(2 * GRACE);

        GcResult stale = gc(store).run(state(List.of(), Map.of()), time.milliseconds() - GRACE / 4 - 1, false);
        assertEquals(List.of(), stale.deleted());
        assertEquals(GcResult.Outcome.STALE_STATE, stale.outcome());
        assertTrue(exists("orders/leaked-0000.avro"));

        GcResult fresh = gc(store).run(state(List.of(), Map.of()), time.milliseconds() - GRACE / 4, false);
        assertEquals(List.of("orders/leaked-0000.avro"), fresh.deleted());
    }

    @Test
    void shouldTakeTheClockBeforeReadingTheState() {
        put("orders/leaked-0000.avro");
        time.sleep(2 * GRACE);

        GcResult result = gc(store).run(() -> {
            time.sleep(GRACE / 4 + 1); // a slow read: the state is as of its start
            return state(List.of(), Map.of());
        }, false);

        assertEquals(GcResult.Outcome.STALE_STATE, result.outcome());
        assertTrue(exists("orders/leaked-0000.avro"));
    }

    @Test
    void shouldDeleteNothingWhileTheShardHasNoAppends() {
        put("orders/part-0000.avro");
        time.sleep(10 * GRACE);

        GcResult result = gc(store).run(new ShardState("orders"), time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.candidates());
        assertEquals(GcResult.Outcome.NO_APPENDS, result.outcome());
        assertTrue(exists("orders/part-0000.avro"));
    }

    @Test
    void shouldCountABlobDeletedMeanwhileAsMissing() {
        put("orders/leaked-0000.avro", 5);
        put("orders/leaked-0001.avro", 9);
        time.sleep(GRACE + 1);
        BlobStore raced = new ForwardingBlobStore(store) {
            @Override
            public boolean delete(String key) {
                if (key.endsWith("0000.avro")) {
                    delegate.delete(key); // another GC got there first
                }
                return delegate.delete(key);
            }
        };

        GcResult result = gc(raced).run(state(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(List.of("orders/leaked-0001.avro"), result.deleted());
        assertEquals(9, result.bytesFreed());
        assertEquals(1, result.missing());
        assertEquals(GcResult.Outcome.COMPLETE, result.outcome());
    }

    @Test
    void shouldStopBetweenDeletionsWhenInterrupted() {
        put("orders/leaked-0000.avro");
        put("orders/leaked-0001.avro");
        time.sleep(GRACE + 1);
        BlobStore interrupting = new ForwardingBlobStore(store) {
            @Override
            public boolean delete(String key) {
                Thread.currentThread().interrupt();
                return delegate.delete(key);
            }
        };
        GcResult result;
        try {
            result = gc(interrupting).run(state(List.of(), Map.of()), time.milliseconds(), false);
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, result.deleted().size());
        assertEquals(GcResult.Outcome.INTERRUPTED, result.outcome());
    }

    /** Issue 21 item 1: a GC configured with a smaller grace than the shard's appender still waits the shard's. */
    @Test
    void shouldWaitTheShardsRecordedGraceWhenItIsLargerThanItsOwn() {
        put("orders/pending-0000.avro");
        time.sleep(3 * GRACE);
        ShardState state = state(List.of(), Map.of());
        state.recordGrace(new ShardGrace(30 * GRACE, 0, 0));

        GcResult result = gc(store).run(state, time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.youngProtected(), "young by the shard's grace");
        assertEquals(30 * GRACE, result.graceMs());
        assertTrue(exists("orders/pending-0000.avro"));
        time.sleep(30 * GRACE);
        assertEquals(List.of("orders/pending-0000.avro"), gc(store).run(state, time.milliseconds(), false).deleted());
    }

    @Test
    void shouldWaitItsOwnGraceWhenTheShardsRecordedOneIsSmaller() {
        put("orders/leaked-0000.avro");
        time.sleep(GRACE / 2 + 1);
        ShardState state = state(List.of(), Map.of());
        state.recordGrace(new ShardGrace(GRACE / 2, 0, 0));

        GcResult result = gc(store).run(state, time.milliseconds(), false);

        assertEquals(List.of(), result.deleted());
        assertEquals(GRACE, result.graceMs());
    }

    @Test
    void shouldDeleteNothingWhileTheShardHasAppendsButNoRecordedGrace() {
        put("orders/leaked-0000.avro");
        time.sleep(100 * GRACE);

        GcResult result = gc(store).run(unrecordedState(List.of(), Map.of()), time.milliseconds(), false);

        assertEquals(GcResult.Outcome.NO_GRACE, result.outcome());
        assertEquals(List.of(), result.deleted());
        assertEquals(1, result.candidates());
        assertTrue(exists("orders/leaked-0000.avro"));
    }

    private BlobGc gc(BlobStore blobs) {
        return new BlobGc(blobs, PREFIX, OWNER, GRACE, time);
    }

    private void put(String key) {
        put(key, 3);
    }

    private void put(String key, int size) {
        store.putIfAbsent(key, new byte[size], OWNER.value());
    }

    private boolean exists(String key) {
        return keys(store.list(key)).contains(key);
    }

    private static List<String> keys(List<BlobInfo> blobs) {
        return blobs.stream().map(BlobInfo::key).toList();
    }

    /**
     * A state with one append whose one batch holds {@code live} as parts, and {@code retired}, and
     * whose appender recorded the GC's own grace.
     */
    static ShardState state(List<String> live, Map<String, Long> retired) {
        ShardState state = unrecordedState(live, retired);
        state.recordGrace(new ShardGrace(GRACE, 0, 0));
        return state;
    }

    /** {@link #state} as a reader finds it while no appender has recorded the shard's grace. */
    static ShardState unrecordedState(List<String> live, Map<String, Long> retired) {
        List<Part> parts = new ArrayList<>();
        for (String key : live) {
            parts.add(new Part(key, 1, 3L, 1L, null));
        }
        Batch batch = Batch.newBuilder().setBatchId("b1").setShard("orders").setLower(0L).setUpper(1_000L)
            .setSchemaIds(List.of(1)).setContributions(List.of(new Contribution(0, 0L, 1_000L, 1L)))
            .setParts(parts).setUpdates(parts.size()).setBytes(3L * parts.size()).build();
        List<RetiredBlob> gone = new ArrayList<>();
        new TreeMap<>(retired).forEach((key, at) -> gone.add(new RetiredBlob(key, at)));
        return ShardState.of(StateRollup.newBuilder().setShard("orders").setSeqno(1L).setUpper(1_000L).setSince(0L)
            .setPartitionCount(1).setBatches(List.of(batch)).setRetired(gone).setRolledUpAtMs(0L).build());
    }

    /** A clock that reads {@code time}, so blobs are stamped with the test's time. */
    static Clock clockOf(MockTime time) {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(time.milliseconds());
            }
        };
    }
}
