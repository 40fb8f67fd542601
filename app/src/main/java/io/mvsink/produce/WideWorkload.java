package io.mvsink.produce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A seeded workload of realistic rows ({@link #ROW_SCHEMA}: eight fields, strings with quotes,
 * backslashes, control and non-ASCII characters, a nullable string, a nullable long, an array of
 * strings, a double, a boolean) with multiplicities above 1, its own model, and a share of late
 * updates.
 *
 * <ul>
 *   <li>An insert picks a key among {@code keys} and one of {@value #VARIANTS} variants of it; the
 *       row is a function of (seed, key, variant), so rows recur and counts grow past their diffs.
 *       Its diff is +1 (85%), +2 (10%) or +3 (5%).</li>
 *   <li>A retraction (share {@code retractShare} once a row is present) takes back part or all of a
 *       present row's count: -1 (60%), -2 (30%, when the count is at least 2) or the whole count (10%).
 *       Counts never go negative.</li>
 *   <li>A share {@code lateShare} of all updates is marked {@link Workload.Correction#late()}: the
 *       sender puts it below its partition's frontier, and by the input contract the sink advances
 *       it to the next open interval (counted, never dropped), so the model counts it like any
 *       other. Only inserts are marked: a late retraction could land before its own insert (sent
 *       in the same progress step), and every intermediate snapshot would no longer be a multiset.</li>
 * </ul>
 * Each correction costs O(1) (a few hash operations on a row of eight fields).
 */
public final class WideWorkload implements CorrectionSource {
    public static final Schema ROW_SCHEMA = SchemaBuilder.record("WideRow").namespace("io.mvsink.demo")
        .fields()
        .requiredLong("id")
        .requiredString("name")
        .requiredString("city")
        .optionalString("note")
        .optionalLong("parent_id")
        .name("tags").type().array().items().stringType().noDefault()
        .requiredDouble("price")
        .requiredBoolean("in_stock")
        .endRecord();

    /** Distinct rows per key. */
    static final int VARIANTS = 4;

    static final String[] NAMES = {
        "naïve \"quoted\" \\ path — 日本",
        "C:\\Users\\zoë\\Documents\\résumé.txt",
        "she said \"hi\"\tand left\non a new line",
        "Ελληνικά, русский, עברית 🚀",
        "plain ascii, with a comma; and a semicolon",
        "{\"json\": \"in a string\", \"n\": [1, 2]}",
    };
    static final String[] CITIES = {"Zürich", "São Paulo", "Kraków", "東京", "Reykjavík", "New York"};
    static final String[] NOTES = {"back\\slash", "\"fully quoted\"", "ünïcödé ½", "tab\there", "emoji 😀 ß"};
    static final String[] TAGS = {"sale", "neu", "café", "日本語", "a\"b", "c\\d", "x/y", "🚀"};

    private final long seed;
    private final Random random;
    private final int keys;
    private final double retractShare;
    /** The chance that an insert is late, so that late updates are {@code lateShare} of all updates. */
    private final double insertLateShare;
    private final RowCounts model = new RowCounts();

    public WideWorkload(long seed, int keys, double retractShare, double lateShare) {
        if (keys < 1 || retractShare < 0 || retractShare >= 1 || lateShare < 0 || lateShare > 1 - retractShare) {
            throw new IllegalArgumentException("wide workload: keys must be positive, the retract share in [0, 1) and "
                + "the late share at most the insert share; got " + keys + ", " + retractShare + ", " + lateShare);
        }
        this.seed = seed;
        this.random = new Random(seed);
        this.keys = keys;
        this.retractShare = retractShare;
        this.insertLateShare = lateShare / (1 - retractShare);
    }

    @Override
    public Schema rowSchema() {
        return ROW_SCHEMA;
    }

    @Override
    public Workload.Correction next() {
        GenericRecord row;
        long diff;
        boolean late = false;
        if (!model.isEmpty() && random.nextDouble() < retractShare) {
            row = model.pick(random);
            diff = -retraction(model.count(row));
        } else {
            row = row(random.nextInt(keys), random.nextInt(VARIANTS));
            int r = random.nextInt(20);
            diff = r < 17 ? 1 : r < 19 ? 2 : 3;
            late = random.nextDouble() < insertLateShare;
        }
        model.add(row, diff);
        return new Workload.Correction(Long.toString((Long) row.get("id")), row, diff, late);
    }

    /** How much of a present row's {@code count} a retraction takes back. */
    private long retraction(long count) {
        int r = random.nextInt(10);
        if (r < 6 || count == 1) {
            return 1;
        }
        return r < 9 ? 2 : count;
    }

    /** The row of {@code key}'s {@code variant}: the same for the same seed, key and variant. */
    private GenericRecord row(long key, int variant) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + key * VARIANTS + variant);
        GenericRecord row = new GenericData.Record(ROW_SCHEMA);
        row.put("id", key);
        row.put("name", NAMES[r.nextInt(NAMES.length)] + " #" + key);
        row.put("city", CITIES[r.nextInt(CITIES.length)]);
        row.put("note", r.nextInt(3) == 0 ? null : NOTES[r.nextInt(NOTES.length)]);
        row.put("parent_id", r.nextBoolean() ? null : (long) r.nextInt(keys));
        int tags = r.nextInt(4);
        List<String> list = new ArrayList<>(tags);
        for (int i = 0; i < tags; i++) {
            list.add(TAGS[r.nextInt(TAGS.length)]);
        }
        row.put("tags", list);
        row.put("price", r.nextInt(1_000_000) / 100.0);
        row.put("in_stock", r.nextBoolean());
        return row;
    }

    @Override
    public Map<GenericRecord, Long> model() {
        return model.copy();
    }
}
