package io.mvsink.bench;

import io.mvsink.console.ProgressLine;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.CorrectionSource;
import io.mvsink.produce.CorrectionSink;
import io.mvsink.produce.Workload;

/**
 * Writes the catch-up backlog by the input contract, through the project's own
 * {@link CorrectionProducer}: the {@link CorrectionSource}'s corrections at the {@link PreloadPlan}'s
 * times, each step followed by a progress record to every partition. A correction the source
 * marks late goes below its partition's frontier (from the second step on; the first has no
 * frontier yet), which the sink advances to the next open interval, so the source's model, which
 * every run's snapshot must equal, counts it like any other.
 */
final class Preload {
    private Preload() {
    }

    /** What was sent: {@code updates}, of which {@code late} below their partition's frontier. */
    record Sent(long updates, long late) {
    }

    /** Sends the plan's updates and progress and flushes. */
    static Sent send(CorrectionSink producer, CorrectionSource source, PreloadPlan plan) {
        long sent = 0;
        long late = 0;
        long reportAt = System.nanoTime();
        ProgressLine progress = ProgressLine.onStderr();
        for (int step = 0; step < plan.steps(); step++) {
            for (int j = 0; j < plan.updatesIn(step); j++) {
                Workload.Correction c = source.next();
                boolean belowFrontier = c.late() && step > 0;
                producer.update(c.key(), c.row(), belowFrontier ? plan.lateTimeOf(step, j) : plan.timeOf(step, j),
                    c.diff());
                sent++;
                late += belowFrontier ? 1 : 0;
            }
            producer.progress(plan.upperAfter(step));
            if (System.nanoTime() > reportAt) {
                progress.update("bench: preloading " + sent + " / " + plan.updates() + " updates");
                reportAt = System.nanoTime() + 1_000_000_000L;
            }
        }
        producer.flush();
        progress.finish("bench: preloaded " + sent + " updates (" + late + " late) in " + plan.steps()
            + " steps, progress up to " + plan.finalUpper());
        return new Sent(sent, late);
    }
}
