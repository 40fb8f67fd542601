package io.mvsink.bench;

import io.mvsink.console.ProgressLine;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;

/**
 * Writes the catch-up backlog by the input contract, through the project's own
 * {@link CorrectionProducer}: the {@link Workload}'s corrections at the {@link PreloadPlan}'s times,
 * each step followed by a progress record to every partition. The workload keeps its model, which
 * every run's snapshot must equal.
 */
final class Preload {
    private Preload() {
    }

    /** Sends the plan's updates and progress, flushes, and returns the number of updates sent. */
    static long send(CorrectionProducer producer, Workload workload, PreloadPlan plan) {
        long sent = 0;
        long reportAt = System.nanoTime();
        ProgressLine progress = ProgressLine.onStderr();
        for (int step = 0; step < plan.steps(); step++) {
            for (int j = 0; j < plan.updatesIn(step); j++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), c.row(), plan.timeOf(step, j), c.diff());
                sent++;
            }
            producer.progress(plan.upperAfter(step));
            if (System.nanoTime() > reportAt) {
                progress.update("bench: preloading " + sent + " / " + plan.updates() + " updates");
                reportAt = System.nanoTime() + 1_000_000_000L;
            }
        }
        producer.flush();
        progress.finish("bench: preloaded " + sent + " updates in " + plan.steps() + " steps, progress up to "
            + plan.finalUpper());
        return sent;
    }
}
