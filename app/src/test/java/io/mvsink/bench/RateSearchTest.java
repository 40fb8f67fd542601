package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateSearchTest {
    private static final long INTERVAL_MS = 1000;

    @Test
    void shouldMultiplyTheStartRateUpToTheMaxIncluded() {
        assertEquals(List.of(2000.0, 4000.0, 8000.0, 16000.0), new RateSteps(2000, 2, 16000, 60).rates());
        assertEquals(List.of(4000.0, 6000.0, 9000.0, 13500.0), new RateSteps(4000, 1.5, 20000, 60).rates());
        assertEquals(List.of(5000.0), new RateSteps(5000, 2, 5000, 60).rates());
    }

    @Test
    void shouldRefuseRatesThatCannotRise() {
        assertThrows(IllegalArgumentException.class, () -> new RateSteps(2000, 1, 16000, 60));
        assertThrows(IllegalArgumentException.class, () -> new RateSteps(2000, 2, 1000, 60));
        assertThrows(IllegalArgumentException.class, () -> new RateSteps(0, 2, 1000, 60));
        assertThrows(IllegalArgumentException.class, () -> new RateSteps(2000, 2, 16000, 0));
    }

    @Test
    void shouldStopAtTheFirstFailingStepAndReportTheLastPassingOne() throws Exception {
        List<Double> tried = new ArrayList<>();
        RateSearch.Result result = RateSearch.search(new RateSteps(2000, 2, 32000, 60), INTERVAL_MS, rate -> {
            tried.add(rate);
            // keeps up to 8000/s; at 16000/s seals fall behind by 10 s over the step
            return rate <= 8000 ? StepVerdictTest.kept(rate)
                : StepVerdictTest.step(rate, (long) (rate * 60), 900, 50, 1300, 11300);
        });
        assertEquals(List.of(2000.0, 4000.0, 8000.0, 16000.0), tried);
        assertEquals(8000.0, result.highest().orElseThrow().figures().rate());
        assertFalse(result.exhausted());
        assertFalse(result.steps().get(3).verdict().passed());
    }

    @Test
    void shouldHaveNoHighestRateWhenTheFirstStepFails() throws Exception {
        RateSearch.Result result = RateSearch.search(new RateSteps(2000, 2, 32000, 60), INTERVAL_MS,
            rate -> StepVerdictTest.step(rate, (long) (rate * 60), 5000, 60, 1300, 1400));
        assertEquals(1, result.steps().size());
        assertTrue(result.highest().isEmpty());
    }

    @Test
    void shouldSayWhenEveryRateUpToTheMaxPassed() throws Exception {
        RateSearch.Result result = RateSearch.search(new RateSteps(2000, 2, 8000, 60), INTERVAL_MS,
            StepVerdictTest::kept);
        assertEquals(3, result.steps().size());
        assertTrue(result.exhausted());
        assertEquals(8000.0, result.highest().orElseThrow().figures().rate());
    }
}
