package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StepVerdictTest {
    private static final long INTERVAL_MS = 1000;

    /** A 60 s step at {@code rate} that the sink kept up with, but for what a test changes. */
    static StepFigures step(double rate, long sent, long sealP99Ms, long intervalsSealed, long lagStartMs, long lagEndMs) {
        return new StepFigures(rate, 60, sent, sent, intervalsSealed, sealP99Ms / 2, sealP99Ms, intervalsSealed,
            intervalsSealed, intervalsSealed, intervalsSealed, lagStartMs, lagEndMs, 0, 30, 10);
    }

    static StepFigures kept(double rate) {
        return step(rate, (long) (rate * 60), 400, 60, 1300, 1400);
    }

    private static void assertPasses(StepFigures step, long intervalMs) {
        StepVerdict verdict = StepVerdict.of(step, intervalMs);
        assertTrue(verdict.passed(), verdict.toString());
    }

    private static void assertFails(StepFigures step, long intervalMs, String... failures) {
        assertEquals(new StepVerdict(false, List.of(failures)), StepVerdict.of(step, intervalMs));
    }

    @Test
    void shouldPassAStepTheSinkKeptUpWith() {
        assertEquals(new StepVerdict(true, List.of()), StepVerdict.of(kept(4000), INTERVAL_MS));
    }

    /** A bound of the verdict: a step at its limit passes, one just past it fails for {@code reason}. */
    private record Bound(StepFigures atLimit, StepFigures past, String reason) {
    }

    @Test
    void shouldPassEachBoundAtItsLimitAndFailJustPastIt() {
        List<Bound> bounds = List.of(
            new Bound(step(4000, 240_000, 2000, 60, 1300, 1400), step(4000, 240_000, 2001, 60, 1300, 1400),
                "seal p99 2001 ms > 2000 ms"),
            new Bound(step(4000, 240_000, 400, 60, 1300, 3300), step(4000, 240_000, 400, 55, 1300, 7300),
                "seal lag grew 6000 ms > 2000 ms"),
            new Bound(step(4000, 228_000, 400, 60, 1300, 1400), step(4000, 227_000, 400, 60, 1300, 1400),
                "producer sent 3783/s < 95% of the rate"));
        for (Bound bound : bounds) {
            assertPasses(bound.atLimit(), INTERVAL_MS);
            assertFails(bound.past(), INTERVAL_MS, bound.reason());
        }
    }

    @Test
    void shouldPassALagThatShrinks() {
        assertPasses(step(4000, 240_000, 400, 62, 5000, 1200), INTERVAL_MS);
    }

    @Test
    void shouldFailAStepWithoutASealEvenThoughItsEmptyP99IsZero() {
        assertFails(step(4000, 240_000, 0, 0, 1300, 1300), INTERVAL_MS, "no interval sealed");
    }

    @Test
    void shouldScaleItsBoundsWithTheInterval() {
        assertPasses(step(4000, 240_000, 3900, 30, 2000, 5900), 2000);
        assertFails(step(4000, 240_000, 4100, 30, 2000, 6100), 2000,
            "seal p99 4100 ms > 4000 ms", "seal lag grew 4100 ms > 4000 ms");
    }
}
