package io.mvsink.bench;

import static io.mvsink.batch.TestUpdates.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.batch.TestUpdates;
import io.mvsink.read.Change;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class RowSumsTest {

    @Test
    void shouldSumEachRowsDiffsAndLeaveOutRowsThatCancel() {
        RowSums sums = new RowSums();
        GenericRecord book = row(1, "books", 5);
        GenericRecord toy = row(2, "toys", 7);

        sums.add(change(book, 2));
        sums.add(change(toy, 1));
        sums.add(change(row(1, "books", 5), -1));
        sums.add(change(row(2, "toys", 7), -1));

        assertEquals(Map.of(json(book), 1L), sums.net(), "toys cancelled; books by value, not by record");
    }

    @Test
    void shouldKeepRowsOfTwoSchemasApartEvenWhereTheirBytesAreEqual() {
        RowSums sums = new RowSums();
        GenericRecord v1 = row(1, "books", 5);
        // the same layout under other names: the same bytes, another row
        GenericRecord other = new GenericData.Record(TestUpdates.SAME_LAYOUT);
        for (int i = 0; i < 3; i++) {
            other.put(i, v1.get(i));
        }

        sums.add(change(v1, 1));
        sums.add(change(other, 1));

        assertEquals(Map.of(json(v1), 1L, json(other), 1L), sums.net());
    }

    @Test
    void shouldSumASubscriptionsChangesByTheBytesTheyCarryAsByTheRowsTheyHold() {
        RowSums sums = new RowSums();
        GenericRecord book = row(1, "books", 5);

        sums.add(change(book, 2));
        sums.add(subscribed(book, -2));

        assertEquals(Map.of(), sums.net(), "the carried bytes are the row's own");
    }

    /** A change as a subscription hands it over, with its row's bytes. */
    private static Change subscribed(GenericRecord row, long diff) {
        return io.mvsink.read.TestChanges.of(row, 100, diff);
    }

    private static Change change(GenericRecord row, long diff) {
        return new Change(json(row), 100, diff, row);
    }

    private static String json(GenericRecord row) {
        return GenericData.get().toString(row);
    }
}
