package io.mvsink.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class WideWorkloadTest {
    private static final int N = 200_000;

    private static List<Workload.Correction> take(WideWorkload workload, int n) {
        List<Workload.Correction> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(workload.next());
        }
        return out;
    }

    @Test
    void shouldKeepAModelThatIsTheSumOfItsCorrectionsAndNeverNegative() {
        WideWorkload workload = new WideWorkload(5, 2_000, 0.3, 0.005);
        Map<GenericRecord, Long> sums = new HashMap<>();
        for (Workload.Correction c : take(workload, N)) {
            long count = sums.merge(c.row(), c.diff(), Long::sum);
            assertTrue(count >= 0, "a retraction took back more than was present: " + c);
            assertEquals(Long.toString((Long) c.row().get("id")), c.key());
        }
        sums.values().removeIf(count -> count == 0);
        assertEquals(sums, workload.model());
    }

    @Test
    void shouldInsertAndRetractWithMultiplicitiesAboveOne() {
        WideWorkload workload = new WideWorkload(7, 2_000, 0.3, 0.005);
        Map<GenericRecord, Long> counts = new HashMap<>();
        Set<Long> inserts = new HashSet<>();
        int retractions = 0;
        int partialAboveOne = 0;
        int wholeAboveTwo = 0;
        for (Workload.Correction c : take(workload, N)) {
            long before = counts.getOrDefault(c.row(), 0L);
            long after = counts.merge(c.row(), c.diff(), Long::sum);
            if (c.diff() > 0) {
                inserts.add(c.diff());
            } else {
                retractions++;
                partialAboveOne += c.diff() <= -2 && after > 0 ? 1 : 0;
                wholeAboveTwo += c.diff() < -2 && after == 0 ? 1 : 0;
            }
            assertTrue(before > 0 || c.diff() > 0, "retracted an absent row: " + c);
        }
        assertEquals(Set.of(1L, 2L, 3L), inserts);
        assertEquals(0.3, retractions / (double) N, 0.02);
        assertTrue(partialAboveOne > 1_000, "retractions of -2 that leave part of the count: " + partialAboveOne);
        assertTrue(wholeAboveTwo > 100, "retractions of a whole count above 2: " + wholeAboveTwo);
        assertTrue(workload.model().values().stream().anyMatch(count -> count > 3), "rows recur: counts grow past +3");
    }

    @Test
    void shouldMarkHalfAPercentOfUpdatesLateAndOnlyInserts() {
        List<Workload.Correction> corrections = take(new WideWorkload(9, 50_000, 0.3, 0.005), N);
        List<Workload.Correction> late = corrections.stream().filter(Workload.Correction::late).toList();
        assertEquals(0.005, late.size() / (double) N, 0.001);
        assertTrue(late.stream().allMatch(c -> c.diff() > 0), "a late retraction could land before its insert");
        assertTrue(take(new WideWorkload(9, 50_000, 0.3, 0), 10_000).stream().noneMatch(Workload.Correction::late));
        assertFalse(new Workload(9, 50, 0.3).next().late());
    }

    @Test
    void shouldMakeRowsWithQuotesBackslashesNonAsciiNullsAndArrays() {
        Set<String> seen = new HashSet<>();
        for (Workload.Correction c : take(new WideWorkload(3, 1_000, 0.3, 0.005), 5_000)) {
            GenericRecord row = c.row();
            String text = row.get("name") + " " + row.get("city") + " " + row.get("note") + " " + row.get("tags");
            check(seen, "quote", text.contains("\""));
            check(seen, "backslash", text.contains("\\"));
            check(seen, "control character", text.contains("\t") || text.contains("\n"));
            check(seen, "non-ASCII", text.chars().anyMatch(ch -> ch > 127));
            check(seen, "outside the BMP", text.codePoints().anyMatch(Character::isSupplementaryCodePoint));
            check(seen, "null note", row.get("note") == null);
            check(seen, "note", row.get("note") != null);
            check(seen, "null parent", row.get("parent_id") == null);
            check(seen, "parent", row.get("parent_id") instanceof Long);
            check(seen, "no tags", ((List<?>) row.get("tags")).isEmpty());
            check(seen, "tags", ((List<?>) row.get("tags")).size() > 1);
            check(seen, "fractional price", (Double) row.get("price") % 1 != 0);
            check(seen, "in stock", Boolean.TRUE.equals(row.get("in_stock")));
            check(seen, "out of stock", Boolean.FALSE.equals(row.get("in_stock")));
        }
        assertEquals(Set.of("quote", "backslash", "control character", "non-ASCII", "outside the BMP", "null note",
            "note", "null parent", "parent", "no tags", "tags", "fractional price", "in stock", "out of stock"), seen);
        assertEquals(8, WideWorkload.ROW_SCHEMA.getFields().size());
    }

    private static void check(Set<String> seen, String what, boolean holds) {
        if (holds) {
            seen.add(what);
        }
    }

    @Test
    void shouldReadEveryRowBackToAnEqualRowWithTheSameStringForm() throws IOException {
        // the bench compares snapshots with the model by GenericData's string form of each row
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(WideWorkload.ROW_SCHEMA);
        GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(WideWorkload.ROW_SCHEMA);
        for (Workload.Correction c : take(new WideWorkload(4, 1_000, 0.3, 0.005), 2_000)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            writer.write(c.row(), encoder);
            encoder.flush();
            GenericRecord back = reader.read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
            assertEquals(GenericData.get().toString(c.row()), GenericData.get().toString(back));
            assertEquals(c.row(), back);
        }
    }

    @Test
    void shouldMakeTheSameCorrectionsForTheSameSeed() {
        List<Workload.Correction> a = take(new WideWorkload(21, 500, 0.3, 0.005), 20_000);
        assertEquals(a, take(new WideWorkload(21, 500, 0.3, 0.005), 20_000));
        assertNotEquals(a, take(new WideWorkload(22, 500, 0.3, 0.005), 20_000));
    }

    @Test
    void shouldRefuseShareOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new WideWorkload(1, 10, 1.0, 0));
        assertThrows(IllegalArgumentException.class, () -> new WideWorkload(1, 10, 0.3, 0.8));
        assertThrows(IllegalArgumentException.class, () -> new WideWorkload(1, 0, 0.3, 0.005));
    }
}
