package io.mvsink.produce;

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
 * Rows of three fields ({@link #ROW_SCHEMA}); {@link WideWorkload} makes realistic ones.
 */
public final class Workload implements CorrectionSource {
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
    private final RowCounts model = new RowCounts();

    /**
     * One correction to send.
     *
     * @param late whether to send it below its partition's frontier (a late update by the input
     *             contract, which the sink advances to the next open interval); {@link Workload}'s never are
     */
    public record Correction(String key, GenericRecord row, long diff, boolean late) {
        public Correction(String key, GenericRecord row, long diff) {
            this(key, row, diff, false);
        }
    }

    public Workload(long seed, int keys, double retractShare) {
        this.random = new Random(seed);
        this.keys = keys;
        this.retractShare = retractShare;
    }

    @Override
    public Schema rowSchema() {
        return ROW_SCHEMA;
    }

    @Override
    public Correction next() {
        GenericRecord row;
        long diff;
        if (!model.isEmpty() && random.nextDouble() < retractShare) {
            row = model.pick(random);
            diff = -1;
        } else {
            row = new GenericData.Record(ROW_SCHEMA);
            long id = random.nextInt(keys);
            row.put("id", id);
            row.put("category", CATEGORIES[(int) (id % CATEGORIES.length)]);
            row.put("amount", (long) random.nextInt(100));
            diff = 1 + (random.nextInt(10) == 0 ? random.nextInt(3) : 0);
        }
        model.add(row, diff);
        return new Correction(Long.toString((Long) row.get("id")), row, diff);
    }

    @Override
    public Map<GenericRecord, Long> model() {
        return model.copy();
    }
}
