package io.mvsink.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
    @Test
    void shouldCountEachLatencyInTheFirstBucketWhoseBoundHoldsIt() {
        LatencyHistogram h = new LatencyHistogram(List.of(0.1, 1.0, 10.0));
        h.record(100);    // on a bound: that bucket (le is inclusive)
        h.record(101);
        h.record(1_000);
        h.record(-5);     // a clock step back counts as 0
        h.record(60_000); // above every bound
        LatencyHistogram.Snapshot s = h.snapshot();
        assertArrayEquals(new long[] {2, 2, 0, 1}, s.counts());
        assertEquals(5, s.count());
        assertEquals(61.201, s.sumSeconds(), 1e-9);
    }

    @Test
    void shouldRefuseBoundsThatDoNotAscend() {
        assertThrows(IllegalArgumentException.class, () -> new LatencyHistogram(List.of(1.0, 1.0)));
    }
}
