package io.mvsink.produce;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A seeded synthetic workload of inserts and retractions over {@code keys} row keys, with its
 * own model (row to net count). Retractions only take back rows that are present, so counts
 * stay non-negative and every retraction meets its insert in the same partition (same key).
 * Each correction costs O(1), so a workload of millions (the catch-up bench) is cheap to make.
 */
public final class Workload {
    public static final Schema ROW_SCHEMA = SchemaBuilder.record("Row").namespace("io.mvsink.demo")
        .fields()
        .requiredLong("id")
        .requiredString("category")
        .requiredLong("amount")
        .endRecord();

    private static final String[] CATEGORIES = {"books", "games", "music", "tools", "toys"};

    private final Random random;
    private final int keys;
    private final double retractShare;
    private final Map<GenericRecord, Long> model = new HashMap<>();
    private final List<GenericRecord> present = new ArrayList<>();
    /** Where each present row sits in {@link #present}, so that removing one is O(1) (swap with the last). */
    private final Map<GenericRecord, Integer> presentIndex = new HashMap<>();

    /** One correction to send. */
    public record Correction(String key, GenericRecord row, long diff) {
    }

    public Workload(long seed, int keys, double retractShare) {
        this.random = new Random(seed);
        this.keys = keys;
        this.retractShare = retractShare;
    }

    /** The next correction; the model already counts it. */
    public Correction next() {
        GenericRecord row;
        long diff;
        if (!present.isEmpty() && random.nextDouble() < retractShare) {
            int index = random.nextInt(present.size());
            row = present.get(index);
            diff = -1;
        } else {
            row = new GenericData.Record(ROW_SCHEMA);
            long id = random.nextInt(keys);
            row.put("id", id);
            row.put("category", CATEGORIES[(int) (id % CATEGORIES.length)]);
            row.put("amount", (long) random.nextInt(100));
            diff = 1 + (random.nextInt(10) == 0 ? random.nextInt(3) : 0);
        }
        long count = model.merge(row, diff, Long::sum);
        if (count == 0) {
            model.remove(row);
            removePresent(row);
        } else if (count == diff) {
            presentIndex.put(row, present.size());
            present.add(row);
        }
        return new Correction(Long.toString((Long) row.get("id")), row, diff);
    }

    private void removePresent(GenericRecord row) {
        int index = presentIndex.remove(row);
        GenericRecord last = present.remove(present.size() - 1);
        if (index < present.size()) {
            present.set(index, last);
            presentIndex.put(last, index);
        }
    }

    /** Net count per row of everything generated so far (rows with count 0 left out). */
    public Map<GenericRecord, Long> model() {
        return Map.copyOf(model);
    }
}
