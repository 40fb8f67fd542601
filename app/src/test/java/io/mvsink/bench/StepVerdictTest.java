package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void shouldPassAStepTheSinkKeptUpWith() {
        StepVerdict verdict = StepVerdict.of(kept(4000), INTERVAL_MS);
        assertTrue(verdict.passed(), verdict.toString());
        assertEquals(List.of(), verdict.failures());
    }

    @Test
    void shouldFailASealP99AboveTwoIntervals() {
        assertTrue(StepVerdict.of(step(4000, 240_000, 2000, 60, 1300, 1400), INTERVAL_MS).passed());
        StepVerdict verdict = StepVerdict.of(step(4000, 240_000, 2001, 60, 1300, 1400), INTERVAL_MS);
        assertFalse(verdict.passed());
        assertEquals(List.of("seal p99 2001 ms > 2000 ms"), verdict.failures());
    }

    @Test
    void shouldFailAGrowingLag() {
        assertTrue(StepVerdict.of(step(4000, 240_000, 400, 60, 1300, 3300), INTERVAL_MS).passed());
        StepVerdict verdict = StepVerdict.of(step(4000, 240_000, 400, 55, 1300, 7300), INTERVAL_MS);
        assertFalse(verdict.passed());
        assertEquals(List.of("seal lag grew 6000 ms > 2000 ms"), verdict.failures());
    }

    @Test
    void shouldPassALagThatShrinks() {
        assertTrue(StepVerdict.of(step(4000, 240_000, 400, 62, 5000, 1200), INTERVAL_MS).passed());
    }

    @Test
    void shouldFailAStepWithoutASealEvenThoughItsEmptyP99IsZero() {
        StepVerdict verdict = StepVerdict.of(step(4000, 240_000, 0, 0, 1300, 1300), INTERVAL_MS);
        assertFalse(verdict.passed());
        assertEquals(List.of("no interval sealed"), verdict.failures());
    }

    @Test
    void shouldFailAStepThatTheProducerDidNotReach() {
        assertTrue(StepVerdict.of(step(4000, 228_000, 400, 60, 1300, 1400), INTERVAL_MS).passed());
        StepVerdict verdict = StepVerdict.of(step(4000, 227_000, 400, 60, 1300, 1400), INTERVAL_MS);
        assertFalse(verdict.passed());
        assertEquals(List.of("producer sent 3783/s < 95% of the rate"), verdict.failures());
    }

    @Test
    void shouldScaleItsBoundsWithTheInterval() {
        assertTrue(StepVerdict.of(step(4000, 240_000, 3900, 30, 2000, 5900), 2000).passed());
        assertEquals(List.of("seal p99 4100 ms > 4000 ms", "seal lag grew 4100 ms > 4000 ms"),
            StepVerdict.of(step(4000, 240_000, 4100, 30, 2000, 6100), 2000).failures());
    }
}
