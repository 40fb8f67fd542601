package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
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
        assertFalse(SubscriberFigures.of("none", "catch-up", 1000, late, diffs, Map.of(), true, null).targetLine()
            .contains("2 batch intervals"), "no steady rate while catching up: the catch-up's targets");
    }

    @Test
    void shouldHoldACatchUpToTheSinksSealingRateAndALagP99WithinTwoSeconds() {
        // 4,000 updates sealed over 2 s: 2,000 updates/s
        List<StateDiff> diffs = List.of(seal(1, 1000, 9_900, 1000), seal(2, 2000, 10_900, 1000),
            seal(3, 3000, 11_900, 2000));
        Map<Long, Long> sealedAtMs = Map.of(1L, 10_000L, 2L, 11_000L, 3L, 12_000L);
        List<Delivery> keptUp = List.of(new Delivery(1, 1000, 1000, 10_500), new Delivery(2, 2000, 1000, 11_400),
            new Delivery(3, 3000, 2000, 12_400));
        List<Delivery> fellBehind = List.of(new Delivery(1, 1000, 1000, 11_000), new Delivery(2, 2000, 1000, 12_500),
            new Delivery(3, 3000, 2000, 13_200));
        List<Delivery> lagged = List.of(new Delivery(1, 1000, 1000, 12_100), new Delivery(2, 2000, 1000, 13_050),
            new Delivery(3, 3000, 2000, 14_050));

        SubscriberFigures met = SubscriberFigures.of("b", "catch-up", 1000, keptUp, diffs, sealedAtMs, true, null);
        assertEquals(4000, met.sealedUpdates());
        assertEquals(2000, met.sealingPerSecond(), 1e-9);
        assertEquals(4000 / 1.9, met.deliveredPerSecond(), 1e-9);
        assertEquals(List.of("  [met ] b rate", "  [met ] b lag"), verdicts(met));
        assertEquals(List.of("  [MISS] b rate", "  [met ] b lag"),
            verdicts(SubscriberFigures.of("b", "catch-up", 1000, fellBehind, diffs, sealedAtMs, true, null)),
            "2.2 s to deliver what was sealed in 2 s; lag p99 1,500 ms");
        assertEquals(List.of("  [met ] b rate", "  [MISS] b lag"),
            verdicts(SubscriberFigures.of("b", "catch-up", 1000, lagged, diffs, sealedAtMs, true, null)),
            "delivered in 1.95 s, but lag p99 2,100 ms");
    }

    private static StateDiff seal(long seqno, long upper, long appendedAtMs, long updates) {
        Batch batch = Batch.newBuilder().setBatchId("b" + seqno).setShard("s").setLower(upper - 1000).setUpper(upper)
            .setSchemaIds(List.of()).setContributions(List.of()).setParts(List.of()).setUpdates(updates).setBytes(0)
            .setClosedAtMs(0).build();
        return StateDiff.newBuilder(append(seqno, upper - 1000, upper, appendedAtMs)).setAdded(List.of(batch)).build();
    }

    private static List<String> verdicts(SubscriberFigures f) {
        return f.targetLine().lines()
            .map(line -> line.substring(0, line.indexOf(':')) + (line.contains("keeps up") ? " rate" : " lag")).toList();
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
