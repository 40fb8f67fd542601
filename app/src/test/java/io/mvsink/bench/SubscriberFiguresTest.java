package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.StateDiff;
import io.mvsink.bench.SubscriberProbe.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubscriberFiguresTest {
    private static StateDiff append(long seqno, long lower, long upper, long appendedAtMs) {
        return StateDiff.newBuilder().setShard("s").setSeqno(seqno).setLower(lower).setUpper(upper)
            .setPartitionCount(1).setAdded(new ArrayList<>()).setAppendedAtMs(appendedAtMs).build();
    }

    @Test
    void shouldTakeEachSealsLagFromItsAppendToTheFirstDeliveryAtOrAboveItsUpper() {
        List<StateDiff> diffs = List.of(append(1, 0, 1000, 10_000), append(2, 1000, 2000, 11_000),
            append(3, 2000, 2000, 11_500), append(4, 2000, 3000, 12_000), append(5, 3000, 4000, 13_000));
        // seals 1 and 2 delivered together (a catch-up step), the compaction (3) is no seal, 5 not delivered
        List<Delivery> deliveries = List.of(new Delivery(2, 2000, 40, 11_300), new Delivery(4, 3000, 10, 12_900));
        // seals 1 and 4 were read 200 ms after their appends; seal 2 was not seen (it counts from its append)
        Map<Long, Long> sealedAtMs = Map.of(1L, 10_200L, 4L, 12_200L, 5L, 13_100L);

        SubscriberFigures f = SubscriberFigures.of("barrier", "steady", 1000, deliveries, diffs, sealedAtMs, true, null);

        assertEquals(4, f.seals());
        assertEquals(1, f.undelivered());
        assertEquals(50, f.changes());
        assertEquals(List.of(1100L, 300L, 700L), f.lagsMs(), "seal 1, seal 2, seal 4");
        assertEquals(700, f.lagP50Ms());
        assertEquals(1100, f.lagP99Ms());
        assertEquals(1100, f.lagMaxMs());
        assertEquals(1.1, f.lagMaxIntervals(), 1e-9);
        assertEquals(900, f.fromAppendP50Ms(), "from the appends: 1300, 300, 900");
        assertEquals(1300, f.fromAppendMaxMs());
        assertEquals(50 / 1.6, f.changesPerSecond(), 1e-9);
        assertFalse(f.keptUp(), "a seal was never delivered");
    }

    @Test
    void shouldMeetTheTargetAtASteadyRateOnlyWhileTheMaxLagStaysUnderTwoIntervals() {
        List<StateDiff> diffs = List.of(append(1, 0, 1000, 10_000), append(2, 1000, 2000, 11_000));
        List<Delivery> quick = List.of(new Delivery(1, 1000, 1, 10_100), new Delivery(2, 2000, 1, 12_999));
        List<Delivery> late = List.of(new Delivery(1, 1000, 1, 10_100), new Delivery(2, 2000, 1, 13_000));

        assertTrue(SubscriberFigures.of("none", "steady", 1000, quick, diffs, Map.of(), true, null).keptUp());
        SubscriberFigures missed = SubscriberFigures.of("none", "steady", 1000, late, diffs, Map.of(), true, null);
        assertFalse(missed.keptUp());
        assertTrue(missed.targetLine().startsWith("  [MISS] none:"), missed.targetLine());
        assertTrue(SubscriberFigures.of("none", "catch-up", 1000, late, diffs, Map.of(), true, null).targetLine()
            .startsWith("  [info]"), "no steady rate while catching up: figures only");
    }

    @Test
    void shouldTakeNearestRankPercentiles() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, SubscriberFigures.percentile(sorted, 50));
        assertEquals(10, SubscriberFigures.percentile(sorted, 99));
        assertEquals(1, SubscriberFigures.percentile(sorted, 1));
        assertEquals(0, SubscriberFigures.percentile(new long[0], 99));
    }
}
