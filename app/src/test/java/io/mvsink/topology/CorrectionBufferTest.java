package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.batch.Update;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CorrectionBufferTest {
    private static final byte[] A = {1};
    private static final byte[] B = {2};

    private final KeyValueStore<Bytes, byte[]> store = store();
    private final CorrectionBuffer buffer = new CorrectionBuffer(store, 1000);

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void shouldReadARangeInChunksThatTogetherAreTheWholeRange() {
        for (int i = 0; i < 50; i++) {
            buffer.add(100 + i * 37L, 1, new byte[] {(byte) i, 1, 2, 3}, i + 1);
            buffer.flushCache(); // a commit after each: one block each
        }
        buffer.add(2_000, 1, A, 1); // above the range
        List<Update> whole = buffer.range(0, 1000);
        assertEquals(25, whole.size());

        List<Update> chunked = new java.util.ArrayList<>();
        byte[] from = null;
        int chunks = 0;
        do {
            var chunk = buffer.read(0, 1000, from, 40); // 4-byte rows + 10: 14 bytes an update
            assertTrue(chunk.updates().size() <= 6, "a chunk stops inside an interval once it reaches twice the bytes");
            chunked.addAll(chunk.updates());
            from = chunk.next();
            chunks++;
        } while (from != null);
        assertTrue(chunks >= 5, "chunks: " + chunks);
        assertEquals(whole.size(), chunked.size());
        for (int i = 0; i < whole.size(); i++) {
            assertUpdate(chunked.get(i), whole.get(i).time(), whole.get(i).schemaId(), whole.get(i).row(), whole.get(i).diff());
        }
    }

    @Test
    void shouldConsolidateSameRowAndTime() {
        buffer.add(100, 1, A, 1);
        buffer.add(100, 1, A, 2);

        List<Update> updates = buffer.range(0, 1000);

        assertEquals(1, updates.size());
        assertUpdate(updates.get(0), 100, 1, A, 3);
    }

    @Test
    void shouldKeepDifferentRowsTimesAndSchemasApart() {
        buffer.add(100, 1, A, 1);
        buffer.add(100, 1, B, 1);
        buffer.add(101, 1, A, 1);
        buffer.add(100, 2, A, 1);

        assertEquals(4, buffer.range(0, 1000).size());
    }

    @Test
    void shouldRemoveAnEntryWhoseDiffsSumToZero() {
        buffer.add(100, 1, A, 2);
        buffer.add(100, 1, A, -2);

        assertTrue(buffer.range(Long.MIN_VALUE, Long.MAX_VALUE).isEmpty());
        assertEquals(0, store.approximateNumEntries(), "nothing written: the sum was zero before the commit");
    }

    @Test
    void shouldNotStoreAZeroDiffForANewEntry() {
        buffer.add(100, 1, A, 0);
        buffer.flushCache();

        assertEquals(0, store.approximateNumEntries());
    }

    @Test
    void shouldKeepARetractionThatArrivesFirst() {
        buffer.add(100, 1, A, -1);

        assertUpdate(buffer.range(0, 1000).get(0), 100, 1, A, -1);
    }

    @Test
    void shouldReturnExactlyTheHalfOpenRangeInTimeOrder() {
        for (long time : new long[] {1000, -1, 999, 0, 1001, -1000, Long.MIN_VALUE, Long.MAX_VALUE}) {
            buffer.add(time, 1, A, 1);
        }

        assertEquals(List.of(0L, 999L), times(buffer.range(0, 1000)));
        assertEquals(List.of(-1000L, -1L), times(buffer.range(-1000, 0)));
        assertEquals(List.of(Long.MIN_VALUE, -1000L, -1L, 0L, 999L, 1000L, 1001L),
            times(buffer.range(Long.MIN_VALUE, Long.MAX_VALUE)));
        assertTrue(buffer.range(5, 5).isEmpty());
    }

    @Test
    void shouldWriteAndReadOneCommitsUpdatesInTimeOrderWhateverOrderTheyCameIn() {
        java.util.Random random = new java.util.Random(7);
        List<Long> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            long time = random.nextInt(3_000);
            buffer.add(time, 1, java.nio.ByteBuffer.allocate(4).putInt(i).array(), 1);
            sent.add(time);
        }
        buffer.flushCache();
        sent.sort(null);
        assertEquals(sent, times(buffer.range(0, 3_000)), "every update, in time order");
        // times too far apart to pack: sorted all the same
        buffer.add(Long.MAX_VALUE - 1, 1, A, 1);
        buffer.add(Long.MIN_VALUE + 1, 1, A, 1);
        buffer.add(0, 1, B, 1);
        buffer.flushCache();
        assertEquals(List.of(Long.MIN_VALUE + 1), times(buffer.range(Long.MIN_VALUE, -1)));
        assertEquals(List.of(Long.MAX_VALUE - 1), times(buffer.range(3_000, Long.MAX_VALUE)));
    }

    @Test
    void shouldTrimOnlyEntriesBelowTheUpper() {
        buffer.add(-5, 1, A, 1);
        buffer.add(999, 1, A, 1);
        buffer.add(999, 1, B, 1);
        buffer.add(1000, 1, A, 1);
        buffer.add(2500, 1, A, 1);

        assertEquals(3, buffer.trimBelow(1000));

        assertEquals(List.of(1000L, 2500L), times(buffer.range(Long.MIN_VALUE, Long.MAX_VALUE)));
        assertEquals(0, buffer.trimBelow(1000));
    }

    @Test
    void shouldTrimFromWhereTheLastTrimEnded() {
        buffer.add(500, 1, A, 1);
        buffer.add(1500, 1, A, 1);
        buffer.add(1500, 1, B, 1);
        buffer.add(2500, 1, A, 1);

        assertEquals(1, buffer.trimBelow(Long.MIN_VALUE, 1000));
        assertEquals(2, buffer.trimBelow(1000, 2000), "the entries of [1000, 2000)");
        assertEquals(List.of(2500L), times(buffer.range(Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    @Test
    void shouldKeepASumThatWouldOverflowAsTwoEntries() {
        buffer.add(100, 1, A, Long.MAX_VALUE);
        buffer.add(100, 1, A, 1);
        buffer.add(100, 1, B, Long.MIN_VALUE);
        buffer.add(100, 1, B, -1);

        List<Update> updates = buffer.range(0, 1000);
        assertEquals(4, updates.size(), "nothing refused, nothing summed past a long");
        assertEquals(java.math.BigInteger.valueOf(Long.MAX_VALUE).add(java.math.BigInteger.ONE)
                .add(java.math.BigInteger.valueOf(Long.MIN_VALUE)).subtract(java.math.BigInteger.ONE),
            updates.stream().map(u -> java.math.BigInteger.valueOf(u.diff()))
                .reduce(java.math.BigInteger.ZERO, java.math.BigInteger::add));
    }

    @Test
    void shouldWriteTheUpdatesOfOneCommitAsOneEntryPerGridInterval() {
        for (int i = 0; i < 100; i++) {
            buffer.add(100 + i, 1, new byte[] {(byte) i}, 1);
        }
        buffer.add(1_500, 1, A, 1);
        assertEquals(0, store.approximateNumEntries(), "nothing is written before the commit");

        buffer.flushCache();

        assertEquals(2, store.approximateNumEntries(), "one block for [0, 1000), one for [1000, 2000)");
        assertEquals(101, buffer.range(0, 2000).size());
        assertEquals(101, buffer.trimBelow(2000));
        assertEquals(0, store.approximateNumEntries(), "a sealed block is one delete");
    }

    /**
     * An interval holding more than a block may: before, one commit's updates of one interval were
     * one entry whatever their size, and an entry, as a changelog record, over the producer's
     * max.request.size (1 MiB by default) failed every commit of the task (LargeIntervalIT).
     */
    @Test
    void shouldSplitAnIntervalsUpdatesIntoBlocksOfBoundedSize() {
        int rows = (int) (1.5 * CorrectionBuffer.BLOCK_LIMIT / 1_000);
        for (int i = 0; i < rows; i++) {
            byte[] row = new byte[1_000];
            java.nio.ByteBuffer.wrap(row).putInt(i);
            buffer.add(100 + i % 500, 1, row, 1);
        }

        buffer.flushCache();

        assertEquals(2, store.approximateNumEntries(), "one interval, two blocks");
        try (var it = store.all()) {
            it.forEachRemaining(kv -> assertTrue(kv.value.length <= CorrectionBuffer.BLOCK_LIMIT,
                "a block of " + kv.value.length + " bytes"));
        }
        assertEquals(rows, buffer.range(0, 1000).size());
        assertEquals(rows, buffer.trimBelow(1000));
        assertEquals(0, store.approximateNumEntries());
    }

    @Test
    void shouldKeepBlocksWithinASmallerLimitAndAnEntryLargerThanItInABlockOfItsOwn() {
        CorrectionBuffer small = new CorrectionBuffer(store, 1000, 2_500);
        for (int i = 0; i < 5; i++) {
            small.add(100 + i, 1, new byte[] {(byte) i, 1, 2, 3}, 1);
        }
        small.add(200, 1, new byte[3_000], 1);
        for (int i = 0; i < 100; i++) {
            small.add(300 + i, 1, new byte[] {(byte) i, 9}, 1);
        }

        small.flushCache();

        try (var it = store.all()) {
            it.forEachRemaining(kv -> assertTrue(kv.value.length <= 2_500 || kv.value.length == 12 + 24 + 3_000,
                "a block of " + kv.value.length + " bytes"));
        }
        assertTrue(store.approximateNumEntries() >= 3, "the large entry alone, the small ones around it");
        assertEquals(106, small.range(0, 1000).size());
    }

    @Test
    void shouldConsolidateTheSameRowAndTimeAcrossCommits() {
        buffer.add(100, 1, A, 2);
        buffer.flushCache();
        buffer.add(100, 1, A, 3);
        buffer.add(100, 1, B, 1);
        buffer.flushCache();
        buffer.add(100, 1, B, -1);
        buffer.flushCache();

        List<Update> updates = buffer.range(0, 1000);

        assertEquals(1, updates.size(), "B summed to zero across blocks");
        assertUpdate(updates.get(0), 100, 1, A, 5);
    }

    @Test
    void shouldForgetWhatATaskClosedDirtyDidNotCommit() {
        buffer.add(100, 1, A, 1);
        buffer.flushCache();
        buffer.add(200, 1, B, 1);

        buffer.clearCache();

        assertEquals(List.of(100L), times(buffer.range(0, 1000)));
    }

    @Test
    void shouldStartFromTheCommittedStoreWhenKafkaStreamsOpensItAgain() {
        CorrectionBuffer reopened = new CorrectionBufferBuilder(Stores.inMemoryKeyValueStore("reopened"), 1000)
            .withLoggingDisabled().build();
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "reopened-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(config);
        reopened.init(context.getStateStoreContext(), reopened);
        reopened.add(100, 1, A, 1);
        reopened.flushCache();
        reopened.add(200, 1, B, 1); // not committed: the task is revived and processes it again

        reopened.init(context.getStateStoreContext(), reopened);
        reopened.flushCache();

        assertEquals(List.of(100L), times(reopened.range(0, 1000)), "the uncommitted update is not written twice");
        reopened.close();
    }

    @Test
    void shouldGoOnWithTheBlockSequenceAfterATaskStarts() {
        buffer.add(100, 1, A, 1);
        buffer.flushCache();
        buffer.add(100, 1, B, 1);
        buffer.flushCache();
        CorrectionBuffer restarted = new CorrectionBuffer(store, 1000);
        restarted.sizes((time, size) -> { });

        restarted.add(100, 1, A, 1);
        restarted.flushCache();

        assertEquals(3, store.approximateNumEntries(), "no earlier block overwritten");
        assertEquals(2, of(restarted.range(0, 1000), A).diff());
    }

    @Test
    void shouldWriteWithoutACommitOncePendingUpdatesReachTheLimit() {
        byte[] row = new byte[1000];
        for (int i = 0; i * 1000L < CorrectionBuffer.PENDING_LIMIT; i++) {
            buffer.add(i, 1, row, 1);
        }
        assertTrue(store.approximateNumEntries() > 0, "pending memory is bounded");
    }

    @Test
    void shouldKeepABlockUntilItsLastUpdateIsBelowTheUpper() {
        buffer.add(100, 1, A, 1);
        buffer.add(900, 1, A, 1);
        buffer.flushCache();

        assertEquals(0, buffer.trimBelow(500), "an upper inside the block's interval keeps it");
        assertEquals(List.of(900L), times(buffer.range(500, 1000)));
        assertEquals(2, buffer.trimBelow(500, 1000));
    }

    @Test
    void shouldReadAndTrimEntriesWrittenOnePerUpdateBeforeBlocks() {
        store.put(Bytes.wrap(BufferKey.encode(100, 1, A)), java.nio.ByteBuffer.allocate(8).putLong(2).array());
        store.put(Bytes.wrap(BufferKey.encode(1_100, 1, A)), java.nio.ByteBuffer.allocate(8).putLong(1).array());
        buffer.add(100, 1, A, 3);
        buffer.add(100, 1, B, 1);
        buffer.flushCache();

        List<Update> updates = buffer.range(0, 1000);
        assertEquals(2, updates.size());
        assertUpdate(of(updates, A), 100, 1, A, 5);
        assertUpdate(of(updates, B), 100, 1, B, 1);
        java.util.Map<Long, Integer> sizes = new java.util.TreeMap<>();
        buffer.sizes((time, size) -> sizes.merge(time, 1, Integer::sum));
        assertEquals(java.util.Map.of(100L, 3, 1_100L, 1), sizes);
        assertEquals(3, buffer.trimBelow(1000));
        assertEquals(List.of(1_100L), times(buffer.range(Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    @Test
    void shouldCutChunksBetweenGridIntervalsSoThatEachHoldsARowAndTimeOnce() {
        for (int commit = 0; commit < 4; commit++) {
            for (int cell = 0; cell < 3; cell++) {
                buffer.add(cell * 1000L + 5, 1, A, 1);
                buffer.add(cell * 1000L + 5, 1, B, 1);
            }
            buffer.flushCache();
        }
        List<Update> chunked = new java.util.ArrayList<>();
        byte[] from = null;
        do {
            var chunk = buffer.read(0, 3000, from, 50); // 88 bytes an interval: past 50, short of twice 50
            chunked.addAll(chunk.updates());
            from = chunk.next();
        } while (from != null);
        assertEquals(List.of(5L, 5L, 1005L, 1005L, 2005L, 2005L), times(chunked),
            "four commits' entries of one interval are one entry each");
        chunked.forEach(u -> assertEquals(4, u.diff()));
    }

    /** The one update of {@code row} (updates of one time come in no particular order). */
    private static Update of(List<Update> updates, byte[] row) {
        List<Update> found = updates.stream().filter(u -> java.util.Arrays.equals(u.row(), row)).toList();
        assertEquals(1, found.size(), "one update of the row: " + found);
        return found.get(0);
    }

    private static void assertUpdate(Update update, long time, int schemaId, byte[] row, long diff) {
        assertEquals(time, update.time());
        assertEquals(schemaId, update.schemaId());
        assertArrayEquals(row, update.row());
        assertEquals(diff, update.diff());
    }

    private static List<Long> times(List<Update> updates) {
        return updates.stream().map(Update::time).toList();
    }

    private static KeyValueStore<Bytes, byte[]> store() {
        return TestStores.inMemory("buffer", Serdes.Bytes());
    }
}
