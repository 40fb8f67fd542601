package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    private final CorrectionBuffer buffer = new CorrectionBuffer(store);

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void shouldReadARangeInChunksThatTogetherAreTheWholeRange() {
        for (int i = 0; i < 50; i++) {
            buffer.add(100 + i % 7, 1, new byte[] {(byte) i, 1, 2, 3}, i + 1);
        }
        buffer.add(2_000, 1, A, 1); // above the range
        List<Update> whole = buffer.range(0, 1000);
        assertEquals(50, whole.size());

        List<Update> chunked = new java.util.ArrayList<>();
        byte[] from = null;
        int chunks = 0;
        do {
            var chunk = buffer.read(0, 1000, from, 40); // 4-byte rows + 10: three updates a chunk
            assertTrue(chunk.updates().size() <= 3, "a chunk stops once it reaches the bytes asked for");
            chunked.addAll(chunk.updates());
            from = chunk.next();
            chunks++;
        } while (from != null);
        assertEquals(17, chunks);
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
        assertEquals(0, store.approximateNumEntries());
    }

    @Test
    void shouldNotStoreAZeroDiffForANewEntry() {
        buffer.add(100, 1, A, 0);

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
    void shouldThrowOnOverflowAndChangeNothing() {
        buffer.add(100, 1, A, Long.MAX_VALUE);

        assertThrows(ArithmeticException.class, () -> buffer.add(100, 1, A, 1));
        assertUpdate(buffer.range(0, 1000).get(0), 100, 1, A, Long.MAX_VALUE);

        buffer.add(100, 1, B, Long.MIN_VALUE);
        assertThrows(ArithmeticException.class, () -> buffer.add(100, 1, B, -1));
        assertUpdate(buffer.range(0, 1000).get(1), 100, 1, B, Long.MIN_VALUE);
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
