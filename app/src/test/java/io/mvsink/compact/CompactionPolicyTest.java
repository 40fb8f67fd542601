package io.mvsink.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompactionPolicyTest {
    private static final long NO_CAP = Long.MAX_VALUE;

    @Test
    void shouldMergeTwoEqualSealsAtOnceWithoutAnInlineHold() {
        List<Batch> live = List.of(inline(0, 1000, 20, 1200), inline(1000, 2000, 20, 1200));

        assertEquals(Optional.of(live), CompactionPolicy.pick(live, NO_CAP));
        assertEquals(Optional.of(live), CompactionPolicy.pick(live, NO_CAP, 0));
    }

    @Test
    void shouldHoldTheNewestInlineSealsBackUntilTheyHoldTheMergeBytes() {
        List<Batch> live = new ArrayList<>();
        live.add(blob(0, 1000, 100_000));
        for (long t = 1000; t < 100_000; t += 1000) {
            live.add(inline(t, t + 1000, 20, 1000));
        }
        // 99 seals of 1000 inline bytes: below 100,000
        assertEquals(Optional.empty(), CompactionPolicy.pick(live, NO_CAP, 100_000));
        live.add(inline(100_000, 101_000, 20, 1000));

        Optional<List<Batch>> picked = CompactionPolicy.pick(live, NO_CAP, 100_000);

        assertTrue(picked.isPresent(), "100,000 inline bytes: merged");
        assertTrue(picked.get().containsAll(live.subList(1, live.size())), "every held seal goes in one merge");
    }

    @Test
    void shouldStillMergeTheOlderBlobRunsWhileHoldingTheInlineOnes() {
        Batch older = blob(0, 1000, 50);
        Batch newer = blob(1000, 2000, 50);
        List<Batch> live = List.of(older, newer, inline(2000, 3000, 20, 1000), inline(3000, 4000, 20, 1000));

        assertEquals(Optional.of(List.of(older, newer)), CompactionPolicy.pick(live, NO_CAP, 100_000));
    }

    @Test
    void shouldStopHoldingAtTheMostHeldRunsEvenIfTheyHoldLittle() {
        List<Batch> live = new ArrayList<>();
        live.add(inline(0, 1000, 1, 10));
        for (int i = 1; i < CompactionPolicy.MAX_HELD_RUNS - 1; i++) {
            live.add(empty(i * 1000L, (i + 1) * 1000L));
        }
        assertEquals(Optional.empty(), CompactionPolicy.pick(live, NO_CAP, 100_000));
        live.add(empty((CompactionPolicy.MAX_HELD_RUNS - 1) * 1000L, CompactionPolicy.MAX_HELD_RUNS * 1000L));

        assertTrue(CompactionPolicy.pick(live, NO_CAP, 100_000).isPresent(), "at the run bound they merge");
    }

    @Test
    void shouldNotHoldRunsOfEmptyBatchesAlone() {
        List<Batch> live = List.of(empty(0, 1000), empty(1000, 2000));

        assertEquals(Optional.of(live), CompactionPolicy.pick(live, NO_CAP, 100_000),
            "no inline data: merging costs no blob write");
    }

    private static Batch inline(long lower, long upper, long updates, int bytes) {
        return batch(lower, upper, updates, List.of(new Part("", 1, (long) bytes, updates, ByteBuffer.wrap(new byte[bytes]))));
    }

    private static Batch blob(long lower, long upper, long updates) {
        return batch(lower, upper, updates, List.of(new Part("s/" + lower + ".avro", 1, 100L, updates, null)));
    }

    private static Batch empty(long lower, long upper) {
        return batch(lower, upper, 0, List.of());
    }

    private static Batch batch(long lower, long upper, long updates, List<Part> parts) {
        return Batch.newBuilder().setBatchId("b" + lower).setShard("s").setLower(lower).setUpper(upper)
            .setSchemaIds(List.of(1)).setContributions(List.of(new Contribution(0, lower, upper, updates)))
            .setParts(parts).setUpdates(updates).setBytes(parts.stream().mapToLong(Part::getBytes).sum())
            .setClosedAtMs(0L).build();
    }
}
