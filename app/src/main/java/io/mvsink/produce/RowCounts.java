package io.mvsink.produce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.generic.GenericRecord;

/**
 * A workload's model: net count per row, rows with count 0 left out, and the present rows in a
 * list so that picking one at random and removing one (swap with the last) are O(1).
 */
final class RowCounts {
    private final Map<GenericRecord, Long> counts = new HashMap<>();
    private final List<GenericRecord> present = new ArrayList<>();
    /** Where each present row sits in {@link #present}. */
    private final Map<GenericRecord, Integer> presentIndex = new HashMap<>();

    boolean isEmpty() {
        return present.isEmpty();
    }

    /** A present row, uniformly at random (one {@code nextInt} of {@code random}). */
    GenericRecord pick(Random random) {
        return present.get(random.nextInt(present.size()));
    }

    /** The row's net count (0 if absent). */
    long count(GenericRecord row) {
        return counts.getOrDefault(row, 0L);
    }

    /** Adds {@code diff} to the row's count; a count may not go negative. */
    void add(GenericRecord row, long diff) {
        long count = counts.merge(row, diff, Long::sum);
        if (count < 0) {
            throw new IllegalStateException("a retraction of " + diff + " took back more than present: " + row);
        }
        if (count == 0) {
            counts.remove(row);
            removePresent(row);
        } else if (count == diff) {
            presentIndex.put(row, present.size());
            present.add(row);
        }
    }

    private void removePresent(GenericRecord row) {
        int index = presentIndex.remove(row);
        GenericRecord last = present.remove(present.size() - 1);
        if (index < present.size()) {
            present.set(index, last);
            presentIndex.put(last, index);
        }
    }

    /** A copy of the counts. */
    Map<GenericRecord, Long> copy() {
        return Map.copyOf(counts);
    }
}
