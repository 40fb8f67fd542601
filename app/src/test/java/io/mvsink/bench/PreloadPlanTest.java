package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PreloadPlanTest {
    private static final long SECOND = 1000;
    private static final long TEN_MINUTES = 600_000;
    private static final long NOW = 1_700_000_123_456L;

    @Test
    void shouldEndAtAPointOfTheWidestGridAtOrBeforeNow() {
        PreloadPlan plan = PreloadPlan.of(1_000_000, 500, SECOND, TEN_MINUTES, NOW, 11);
        assertEquals(0, plan.finalUpper() % TEN_MINUTES);
        assertTrue(plan.finalUpper() <= NOW && plan.finalUpper() > NOW - TEN_MINUTES);
        assertEquals(plan.finalUpper(), plan.sealableUpper(SECOND));
        assertEquals(plan.finalUpper(), plan.sealableUpper(TEN_MINUTES));
    }

    @Test
    void shouldAdvanceOneOrTwoGridIntervalsPerStep() {
        PreloadPlan plan = PreloadPlan.of(100_000, 500, SECOND, TEN_MINUTES, NOW, 11);
        assertEquals(200, plan.steps());
        boolean sawOne = false;
        boolean sawTwo = false;
        for (int step = 0; step < plan.steps(); step++) {
            long advance = plan.upperAfter(step) - plan.stepStarts()[step];
            assertTrue(advance == SECOND || advance == 2 * SECOND, "step " + step + " advances " + advance);
            sawOne |= advance == SECOND;
            sawTwo |= advance == 2 * SECOND;
        }
        assertTrue(sawOne && sawTwo);
    }

    @Test
    void shouldPutEveryUpdateOfAStepWithinItsSpan() {
        PreloadPlan plan = PreloadPlan.of(1_250, 500, SECOND, SECOND, NOW, 3);
        assertEquals(3, plan.steps());
        assertEquals(250, plan.updatesIn(2));
        for (int step = 0; step < plan.steps(); step++) {
            for (int j = 0; j < plan.updatesIn(step); j++) {
                long time = plan.timeOf(step, j);
                assertTrue(time >= plan.stepStarts()[step] && time < plan.upperAfter(step));
            }
        }
    }

    @Test
    void shouldPutALateUpdateBelowTheFrontierTheStepBeforeSet() {
        PreloadPlan plan = PreloadPlan.of(1_250, 500, SECOND, SECOND, NOW, 3);
        for (int step = 1; step < plan.steps(); step++) {
            for (int j = 0; j < plan.updatesIn(step); j++) {
                long time = plan.lateTimeOf(step, j);
                assertTrue(time < plan.upperAfter(step - 1) && time >= plan.stepStarts()[step - 1]);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> plan.lateTimeOf(0, 0));
    }

    @Test
    void shouldRefuseAWideGridThatIsNotAMultipleOfTheFineOne() {
        assertThrows(IllegalArgumentException.class, () -> PreloadPlan.of(10, 5, 700, 1000, NOW, 1));
    }
}
