package io.mvsink.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The max-rate bench's search: runs the steps of {@link RateSteps#rates()} in order and stops at
 * the first one that fails ({@link StepVerdict}); the highest steady rate is the last step that passed.
 */
final class RateSearch {
    /** Runs one step at a rate and measures it. */
    interface StepRunner {
        StepFigures run(double rate) throws Exception;
    }

    /** One step and its verdict. */
    record Step(StepFigures figures, StepVerdict verdict) {
    }

    /**
     * The steps run, in order; all passed but perhaps the last.
     *
     * @param exhausted every rate up to the max passed: the highest rate is a lower bound
     */
    record Result(List<Step> steps, boolean exhausted) {
        Result {
            steps = List.copyOf(steps);
        }

        /** The last step that passed, if any did. */
        Optional<Step> highest() {
            return steps.stream().filter(s -> s.verdict().passed()).reduce((a, b) -> b);
        }
    }

    private RateSearch() {
    }

    static Result search(RateSteps rates, long intervalMs, StepRunner runner) throws Exception {
        List<Step> steps = new ArrayList<>();
        for (double rate : rates.rates()) {
            StepFigures figures = runner.run(rate);
            Step step = new Step(figures, StepVerdict.of(figures, intervalMs));
            steps.add(step);
            if (!step.verdict().passed()) {
                return new Result(steps, false);
            }
        }
        return new Result(steps, true);
    }
}
