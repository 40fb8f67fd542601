package io.mvsink.compact;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.batch.BlobKeys;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.TestUpdates.ReadUpdate;
import io.mvsink.batch.Update;
import io.mvsink.blob.BlobMaybeWrittenException;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.consensus.ShardState;
import io.mvsink.produce.Workload;
import io.mvsink.read.SnapshotReader;
import io.mvsink.read.UnreadablePartException;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class BatchMergerTest {
    private static final String SHARD = "orders";
    private static final String SUBJECT = "orders-value";
    private static final GenericRecord BOOK = row(1, "books", 5);
    private static final GenericRecord TOY = row(2, "toys", 7);
    private static final GenericRecord GAME = row(3, "games", 9);
    /** v1 ({@link Workload#ROW_SCHEMA}) and a field with a default: backward compatible. */
    private static final Schema V2 = io.mvsink.batch.TestUpdates.ROW_V2;

    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final int v1 = registry.register(SUBJECT, Workload.ROW_SCHEMA);
    private final MockTime time = new MockTime(0, 1_700_000_000_000L, 0);
    private final PartEncoder inputs = new PartEncoder("null", 1 << 20);

    private BatchMerger merger(long targetBytes) {
        return new BatchMerger(blobs, registry, SUBJECT, new PartEncoder("deflate", targetBytes), "orders/",
            "orders-consensus/orders", time);
    }

    @Test
    void shouldCancelAnInsertInOneBatchAndItsRetractionInAnother() {
        Batch p0 = batch(0, 1000, List.of(update(v1, BOOK, 100, 1), update(v1, TOY, 200, 2)), 0);
        Batch p1 = batch(0, 1000, List.of(update(v1, BOOK, 100, -1), update(v1, TOY, 200, 1)), 1);

        Batch merged = merger(1 << 20).merge(SHARD, 2, List.of(p0, p1), 0);

        assertEquals(List.of(new ReadUpdate(TOY, 200, 3)), read(merged));
        assertEquals(1L, merged.getUpdates());
    }

    @Test
    void shouldAdvanceTimesBelowSinceToSinceSoThatTheyConsolidate() {
        Batch first = batch(0, 1000, List.of(update(v1, BOOK, 100, 1), update(v1, TOY, 200, 1)), 0);
        Batch second = batch(1000, 2000, List.of(update(v1, BOOK, 1500, -1), update(v1, TOY, 1200, 1)), 0);

        Batch merged = merger(1 << 20).merge(SHARD, 1, List.of(first, second), 1600);

        assertEquals(List.of(new ReadUpdate(TOY, 1600, 2)), read(merged));
    }

    @Test
    void shouldLeaveTimesAtOrAfterSinceAloneAndSortByTime() {
        Batch first = batch(0, 1000, List.of(update(v1, TOY, 999, 1)), 0);
        Batch second = batch(1000, 2000, List.of(update(v1, BOOK, 1500, 1), update(v1, BOOK, 1000, 1)), 0);

        Batch merged = merger(1 << 20).merge(SHARD, 1, List.of(first, second), 1000);

        List<ReadUpdate> updates = read(merged);
        assertEquals(List.of(1000L, 1000L, 1500L), updates.stream().map(ReadUpdate::time).toList());
        assertTrue(updates.containsAll(List.of(new ReadUpdate(TOY, 1000, 1), new ReadUpdate(BOOK, 1000, 1),
            new ReadUpdate(BOOK, 1500, 1))), updates.toString());
    }

    @Test
    void shouldMergeRowsOfOlderVersionsIntoTheLatestWithItsDefaults() {
        Batch old = batch(0, 1000, List.of(update(v1, BOOK, 10, 1), update(v1, TOY, 10, 1)), 0);
        int v2 = registry.register(SUBJECT, V2);
        Batch mixed = batch(1000, 2000, List.of(update(v1, GAME, 1010, 1), update(v2, inV2(TOY, "none"), 1020, -1),
            update(v2, inV2(GAME, "eu"), 1030, 1)), 0);
        assertEquals(2, mixed.getParts().size(), "one part per schema id");

        Batch merged = merger(1 << 20).merge(SHARD, 1, List.of(old, mixed), 1500);

        assertEquals(List.of(new ReadUpdate(inV2(BOOK, "none"), 1500, 1), new ReadUpdate(inV2(GAME, "none"), 1500, 1),
            new ReadUpdate(inV2(GAME, "eu"), 1500, 1)).stream().sorted(BY_ROW_TEXT).toList(),
            read(merged).stream().sorted(BY_ROW_TEXT).toList(), "TOY inserted under v1, retracted under v2: gone");
        assertEquals(List.of(v2), merged.getSchemaIds());
        for (Part part : merged.getParts()) {
            assertEquals(v2, part.getSchemaId());
            assertEquals(PartEncoder.updateSchema(V2), TestUpdates.schema(blobs.get(part.getKey())));
        }
    }

    @Test
    void shouldKeepTheSnapshotOfTheInputsAtEveryTimeAtOrAboveSince() {
        Random random = new Random(20240611L);
        int v2 = registry.register(SUBJECT, V2);
        SnapshotReader reader = new SnapshotReader(blobs, registry, SUBJECT);
        for (int round = 0; round < 40; round++) {
            int partitions = 1 + random.nextInt(3);
            long upper = 1000L * (1 + random.nextInt(6));
            TreeSet<Long> times = new TreeSet<>();
            List<Batch> batches = randomCover(random, partitions, upper, v2, times);
            long since = random.nextInt((int) upper + 1);
            times = changePoints(times, since, upper);
            ShardState state = new ShardState(SHARD);
            state.apply(diff(1, 0, upper, partitions, 0, batches, List.of()));
            Map<Long, Map<String, Long>> before = new TreeMap<>();
            times.forEach(t -> before.put(t, reader.read(state, t)));

            Batch merged = merger(64 + random.nextInt(2000)).merge(SHARD, partitions, batches, since);
            state.apply(diff(2, upper, upper, partitions, since, List.of(merged),
                batches.stream().map(Batch::getBatchId).toList()));

            for (long t : times) {
                assertEquals(before.get(t), reader.read(state, t), "round " + round + " as of " + t + " since " + since);
            }
            assertEquals(List.of(merged), List.copyOf(state.batches()), "the merged batch replaced the inputs");
        }
    }

    @Test
    void shouldCutPartsAtTheTargetBytesAsTheEncoderDoes() {
        List<Update> updates = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            updates.add(update(v1, row(i, "c" + i % 7, i), 10 + i % 50, 1 + i % 3));
        }
        Batch input = batch(0, 1000, updates, 0);

        Batch merged = merger(500).merge(SHARD, 1, List.of(input), 0);

        List<Update> sorted = new ArrayList<>(updates);
        sorted.sort(Comparator.comparingLong(Update::time).thenComparing(Update::row, java.util.Arrays::compareUnsigned));
        List<Long> expectedCounts = new PartEncoder("deflate", 500).encode(Workload.ROW_SCHEMA, Map.of(
            PartEncoder.META_SCHEMA_ID, "1"), sorted).stream().map(PartEncoder.EncodedPart::updates).toList();
        assertTrue(expectedCounts.size() > 3, "the test needs several parts: " + expectedCounts);
        assertEquals(expectedCounts, merged.getParts().stream().map(Part::getUpdates).toList());
        long bytes = 0;
        for (int i = 0; i < merged.getParts().size(); i++) {
            Part part = merged.getParts().get(i);
            assertEquals(BlobKeys.part("orders/", 0, 1000, merged.getBatchId(), i), part.getKey());
            assertEquals(blobs.get(part.getKey()).length, part.getBytes());
            bytes += part.getBytes();
        }
        assertEquals(bytes, merged.getBytes());
        assertEquals(300L, merged.getUpdates());
        List<ReadUpdate> read = read(merged);
        assertEquals(sorted.stream().map(Update::time).toList(), read.stream().map(ReadUpdate::time).toList());
    }

    @Test
    void shouldDescribeTheMergedBatchAndCarryTheLatestIdInEveryPart() {
        Batch a = batch(0, 1000, List.of(update(v1, BOOK, 1, 1)), 0, 1);
        Batch b = batch(1000, 3000, List.of(update(v1, TOY, 1001, 1)), 0);
        Batch c = batch(1000, 3000, List.of(update(v1, GAME, 2001, 1)), 1);
        int v2 = registry.register(SUBJECT, V2);

        Batch merged = merger(1 << 20).merge(SHARD, 2, List.of(a, b, c), 0);

        assertNotEquals(a.getBatchId(), merged.getBatchId());
        assertEquals(UUID.fromString(merged.getBatchId()).toString(), merged.getBatchId());
        assertEquals(SHARD, merged.getShard());
        assertEquals(0L, merged.getLower());
        assertEquals(3000L, merged.getUpper());
        assertEquals(List.of(new Contribution(0, 0L, 3000L, 0L), new Contribution(1, 0L, 3000L, 0L)),
            merged.getContributions());
        assertEquals(time.milliseconds(), merged.getClosedAtMs());
        assertEquals(List.of(v2), merged.getSchemaIds());
        for (Part part : merged.getParts()) {
            byte[] bytes = blobs.get(part.getKey());
            assertEquals(Integer.toString(v2), TestUpdates.meta(bytes, PartEncoder.META_SCHEMA_ID));
            assertEquals(SHARD, TestUpdates.meta(bytes, PartEncoder.META_SHARD));
            assertEquals("0", TestUpdates.meta(bytes, PartEncoder.META_LOWER));
            assertEquals("3000", TestUpdates.meta(bytes, PartEncoder.META_UPPER));
            assertEquals(merged.getBatchId(), TestUpdates.meta(bytes, PartEncoder.META_BATCH));
        }
    }

    @Test
    void shouldWriteNoPartWhenEverythingCancels() {
        Batch p0 = batch(0, 1000, List.of(update(v1, BOOK, 100, 1)), 0);
        Batch p1 = batch(0, 1000, List.of(), 1);
        Batch p0later = batch(1000, 2000, List.of(update(v1, BOOK, 1100, -1)), 0);
        Batch p1later = batch(1000, 2000, List.of(), 1);
        long writes = blobs.writeRequests();

        Batch merged = merger(1 << 20).merge(SHARD, 2, List.of(p0, p1, p0later, p1later), 2000);

        assertEquals(List.of(), merged.getParts());
        assertEquals(List.of(), merged.getSchemaIds());
        assertEquals(0L, merged.getUpdates());
        assertEquals(2, merged.getContributions().size());
        assertEquals(writes, blobs.writeRequests());
    }

    @Test
    void shouldRefuseBatchesThatAreNotAnExactCover() {
        Batch p0 = batch(0, 1000, List.of(update(v1, BOOK, 1, 1)), 0);
        Batch p1 = batch(0, 1000, List.of(), 1);
        Batch p0later = batch(1000, 2000, List.of(), 0);
        Batch p1twice = batch(0, 1000, List.of(), 1);
        long writes = blobs.writeRequests();
        BatchMerger merger = merger(1 << 20);

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> merger.merge(SHARD, 2, List.of(p0, p1, p0later), 0));
        assertTrue(missing.getMessage().contains("partition 1"), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> merger.merge(SHARD, 2, List.of(p0, p1, p1twice), 0));
        assertThrows(IllegalArgumentException.class, () -> merger.merge(SHARD, 3, List.of(p0, p1), 0));
        assertThrows(IllegalArgumentException.class, () -> merger.merge(SHARD, 2, List.of(), 0));
        assertThrows(IllegalArgumentException.class, () -> merger.merge("other", 2, List.of(p0, p1), 0));
        assertEquals(writes, blobs.writeRequests(), "nothing written");
    }

    @Test
    void shouldFailWhenAPartCannotBeWritten() {
        Batch input = batch(0, 1000, List.of(update(v1, BOOK, 1, 1)), 0);
        blobs.failNextWrites(1, true);

        assertThrows(BlobMaybeWrittenException.class, () -> merger(1 << 20).merge(SHARD, 1, List.of(input), 0));
    }

    @Test
    void shouldFailClearlyWhenASumOverflows() {
        Batch first = batch(0, 1000, List.of(update(v1, BOOK, 10, Long.MAX_VALUE)), 0);
        Batch second = batch(1000, 2000, List.of(update(v1, BOOK, 1010, 1)), 0);
        long writes = blobs.writeRequests();

        ArithmeticException e = assertThrows(ArithmeticException.class,
            () -> merger(1 << 20).merge(SHARD, 1, List.of(first, second), 2000));

        assertTrue(e.getMessage().contains("shard orders [0, 2000)") && e.getMessage().contains("time 2000"),
            e.getMessage());
        assertEquals(writes, blobs.writeRequests(), "nothing written");
    }

    @Test
    void shouldFailClearlyWhenASumOverflowsInAnInlineBatch() {
        Batch first = batch(0, 1000, List.of(update(v1, BOOK, 10, Long.MAX_VALUE)), 0);
        Batch second = inlineBatch(1000, 2000, List.of(update(v1, BOOK, 1010, 1)), 0);

        ArithmeticException e = assertThrows(ArithmeticException.class,
            () -> merger(1 << 20).merge(SHARD, 1, List.of(first, second), 2000));

        assertTrue(e.getMessage().contains("shard orders [0, 2000)"), e.getMessage());
    }

    @Test
    void shouldMoveInlineDataIntoBlobsWhenItMerges() {
        Batch blob = batch(0, 1000, List.of(update(v1, BOOK, 10, 1), update(v1, TOY, 20, 1)), 0);
        int v2 = registry.register(SUBJECT, V2);
        Batch inline = inlineBatch(1000, 2000, List.of(update(v1, TOY, 1500, -1), update(v2, inV2(GAME, "eu"), 1600, 1)), 0);
        long writes = blobs.writeRequests();

        Batch merged = merger(1 << 20).merge(SHARD, 1, List.of(blob, inline), 0);

        assertEquals(List.of(new ReadUpdate(inV2(BOOK, "none"), 10, 1), new ReadUpdate(inV2(TOY, "none"), 20, 1),
            new ReadUpdate(inV2(TOY, "none"), 1500, -1), new ReadUpdate(inV2(GAME, "eu"), 1600, 1)), read(merged));
        assertTrue(merged.getParts().stream().allMatch(p -> p.getInline() == null && !p.getKey().isEmpty()),
            "a merge writes blobs");
        assertEquals(writes + merged.getParts().size(), blobs.writeRequests());
    }

    @Test
    void shouldRefuseToMergeAnInlinePartWhoseSchemaIdTheRegistryNowGivesAnotherSchema() {
        Batch inline = TestUpdates.inlineBatch(SHARD, 0, 1000, List.of(update(v1, BOOK, 10, 1), update(v1, TOY, 20, 1)),
            List.of(new Contribution(0, 0L, 1000L, 2L)), registry);
        InMemorySchemaRegistry restored = new InMemorySchemaRegistry();
        assertEquals(v1, restored.register(SUBJECT, TestUpdates.SAME_LAYOUT), "the restored registry gives the id to another schema");
        BatchMerger merger = new BatchMerger(blobs, restored, SUBJECT, new PartEncoder("deflate", 1 << 20), "orders/",
            "orders-consensus/orders", time);
        Batch[] merged = new Batch[1];

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> merged[0] = merger.merge(SHARD, 1, List.of(inline), 0),
            () -> "merged instead: " + (merged[0] == null ? null : read(merged[0])));

        assertTrue(e.getMessage().contains("fingerprint " + TestUpdates.fingerprint(Workload.ROW_SCHEMA)
            + ", but the registry's schema id " + v1 + " has fingerprint "
            + TestUpdates.fingerprint(TestUpdates.SAME_LAYOUT)), e.getMessage());
        assertEquals(0, blobs.writeRequests(), "nothing written");
    }

    private static final Comparator<ReadUpdate> BY_ROW_TEXT = Comparator.comparing(u -> u.row().toString());

    /** A sealed input batch: the updates written one part per schema id, one contribution per partition. */
    private Batch batch(long lower, long upper, List<Update> updates, int... partitions) {
        String id = UUID.randomUUID().toString();
        Map<Integer, List<Update>> bySchema = new TreeMap<>();
        updates.forEach(u -> bySchema.computeIfAbsent(u.schemaId(), k -> new ArrayList<>()).add(u));
        List<Part> parts = new ArrayList<>();
        long bytes = 0;
        for (Map.Entry<Integer, List<Update>> e : bySchema.entrySet()) {
            Map<String, String> meta = Map.of(PartEncoder.META_SCHEMA_ID, Integer.toString(e.getKey()));
            for (PartEncoder.EncodedPart part : inputs.encode(registry.schemaById(e.getKey()), meta, e.getValue())) {
                String key = BlobKeys.part("orders/", lower, upper, id, parts.size());
                blobs.putIfAbsent(key, part.bytes(), null);
                parts.add(new Part(key, e.getKey(), (long) part.bytes().length, part.updates(), null));
                bytes += part.bytes().length;
            }
        }
        List<Contribution> contributions = new ArrayList<>();
        for (int p : partitions) {
            contributions.add(new Contribution(p, lower, upper, (long) updates.size()));
        }
        return Batch.newBuilder().setBatchId(id).setShard(SHARD).setLower(lower).setUpper(upper)
            .setSchemaIds(new ArrayList<>(bySchema.keySet())).setContributions(contributions).setParts(parts)
            .setUpdates((long) updates.size()).setBytes(bytes).setClosedAtMs(0L).build();
    }

    /** As {@link #batch}, its parts inline (no container file, no blob), written by a real batch writer. */
    private Batch inlineBatch(long lower, long upper, List<Update> updates, int... partitions) {
        List<Contribution> contributions = new ArrayList<>();
        for (int p : partitions) {
            contributions.add(new Contribution(p, lower, upper, (long) updates.size()));
        }
        return TestUpdates.inlineBatch(SHARD, lower, upper, updates, contributions, registry);
    }

    /**
     * Batches tiling {@code [0, upper)} for every partition: cut at random grid points, each
     * piece either one batch of all partitions or one batch per partition, holding random
     * inserts and retractions of a few rows under v1 and v2 (mostly v2's default, so they meet).
     */
    private List<Batch> randomCover(Random random, int partitions, long upper, int v2, TreeSet<Long> times) {
        List<Batch> batches = new ArrayList<>();
        long lower = 0;
        while (lower < upper) {
            long end = Math.min(upper, lower + 1000L * (1 + random.nextInt(3)));
            if (random.nextBoolean()) {
                int[] all = new int[partitions];
                for (int p = 0; p < partitions; p++) {
                    all[p] = p;
                }
                batches.add(batch(lower, end, randomUpdates(random, lower, end, v2, times), all));
            } else {
                for (int p = 0; p < partitions; p++) {
                    batches.add(batch(lower, end, randomUpdates(random, lower, end, v2, times), p));
                }
            }
            lower = end;
        }
        return batches;
    }

    private List<Update> randomUpdates(Random random, long lower, long upper, int v2, TreeSet<Long> times) {
        List<Update> updates = new ArrayList<>();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            GenericRecord row = row(random.nextInt(4), "c", random.nextInt(2));
            long t = lower + random.nextInt((int) (upper - lower));
            times.add(t);
            long diff = random.nextBoolean() ? 1 + random.nextInt(3) : -1 - random.nextInt(3);
            updates.add(random.nextBoolean() ? update(v1, row, t, diff)
                : update(v2, inV2(row, random.nextInt(4) == 0 ? "eu" : "none"), t, diff));
        }
        return updates;
    }

    /**
     * The readable times ({@code [since, upper)}) around every time at which a snapshot can change
     * (the update times), and the ends: between them nothing changes.
     */
    private static TreeSet<Long> changePoints(TreeSet<Long> updateTimes, long since, long upper) {
        TreeSet<Long> times = new TreeSet<>();
        List<Long> candidates = new ArrayList<>(List.of(since, upper - 1));
        updateTimes.forEach(t -> candidates.addAll(List.of(t - 1, t)));
        candidates.stream().filter(t -> t >= since && t < upper).forEach(times::add);
        return times;
    }

    private static StateDiff diff(long seqno, long lower, long upper, int partitions, long since, List<Batch> added,
                                  List<String> removed) {
        return StateDiff.newBuilder().setShard(SHARD).setSeqno(seqno).setLower(lower).setUpper(upper)
            .setPartitionCount(partitions).setAdded(added).setRemovedBatchIds(removed).setSince(since)
            .setAppendedAtMs(0L).build();
    }

    private List<ReadUpdate> read(Batch batch) {
        List<ReadUpdate> updates = new ArrayList<>();
        batch.getParts().forEach(p -> updates.addAll(TestUpdates.read(blobs.get(p.getKey()))));
        return updates;
    }

    private static GenericRecord inV2(GenericRecord v1Row, String region) {
        GenericRecord row = new GenericData.Record(V2);
        v1Row.getSchema().getFields().forEach(f -> row.put(f.name(), v1Row.get(f.name())));
        row.put("region", region);
        return row;
    }
}
