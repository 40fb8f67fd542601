package io.mvsink.bench;

import java.util.Random;

/**
 * The event times of the catch-up preload: {@code updates} updates in steps of
 * {@code updatesPerStep}, each step's updates spread over its span, which is 1 or 2 grid
 * intervals (seeded), and a progress record to every partition at the end of each step. The
 * times end at a multiple of {@code alignMs} (the widest grid of the run) at or below
 * {@code nowMs}, so that the last progress upper is a grid point of every grid in the run and
 * every run can seal every update.
 *
 * @param stepStarts {@code steps + 1} times: step {@code i} covers {@code [stepStarts[i], stepStarts[i+1])}
 *                   and ends with progress {@code stepStarts[i+1]}
 */
record PreloadPlan(long updates, int updatesPerStep, long[] stepStarts) {

    static PreloadPlan of(long updates, int updatesPerStep, long intervalMs, long alignMs, long nowMs, long seed) {
        if (updates < 1 || updatesPerStep < 1 || intervalMs < 1 || alignMs % intervalMs != 0) {
            throw new IllegalArgumentException("preload: updates, updates per step and the grid must be positive, "
                + "and the widest grid (" + alignMs + " ms) a multiple of the finest (" + intervalMs + " ms)");
        }
        int steps = Math.toIntExact((updates + updatesPerStep - 1) / updatesPerStep);
        Random random = new Random(seed);
        long[] starts = new long[steps + 1];
        for (int i = 1; i <= steps; i++) {
            starts[i] = starts[i - 1] + (1 + random.nextInt(2)) * intervalMs;
        }
        long end = Math.floorDiv(nowMs, alignMs) * alignMs;
        long shift = end - starts[steps];
        for (int i = 0; i <= steps; i++) {
            starts[i] += shift;
        }
        return new PreloadPlan(updates, updatesPerStep, starts);
    }

    int steps() {
        return stepStarts.length - 1;
    }

    /** Updates in step {@code step}: {@code updatesPerStep}, the last step what is left. */
    int updatesIn(int step) {
        return (int) Math.min(updatesPerStep, updates - (long) step * updatesPerStep);
    }

    /** Time of update {@code j} of step {@code step}: spread evenly over the step's span. */
    long timeOf(int step, int j) {
        long span = stepStarts[step + 1] - stepStarts[step];
        return stepStarts[step] + span * j / updatesIn(step);
    }

    /**
     * Time of update {@code j} of step {@code step} (at least 1) sent late: below the partition's
     * frontier, which the progress after step {@code step - 1} set; spread over that step's span.
     */
    long lateTimeOf(int step, int j) {
        if (step < 1) {
            throw new IllegalArgumentException("step 0 has no frontier below which an update is late");
        }
        long span = stepStarts[step] - stepStarts[step - 1];
        return stepStarts[step - 1] + span * j / updatesIn(step);
    }

    /** The progress upper that ends step {@code step}. */
    long upperAfter(int step) {
        return stepStarts[step + 1];
    }

    /** The last progress upper: every update is below it. */
    long finalUpper() {
        return stepStarts[steps()];
    }

    /** The highest upper a run on grid {@code intervalMs} can seal: the final upper floored to its grid. */
    long sealableUpper(long intervalMs) {
        return Math.floorDiv(finalUpper(), intervalMs) * intervalMs;
    }
}
