package io.mvsink.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the sink sustained one step of the max-rate bench, and if not, why. A step passes when
 * <ol>
 *   <li>the producer sent at least {@value #MIN_SENT_SHARE} of the rate (else the bench, not the
 *       sink, set the pace, and the rate is not shown to be sustained);</li>
 *   <li>at least one interval sealed in the step;</li>
 *   <li>seal latency p99 of the step's seals is at most 2 batch intervals;</li>
 *   <li>the lag does not grow: the seal lag (wall clock minus the sealed upper; the producer's
 *       event time is its wall clock, so this is the distance from the produced progress to the
 *       sealed upper) at the step's end is at most 2 batch intervals above the one at its start.
 *       A sink that keeps up holds it at about one interval plus its seal latency; one that seals
 *       a share {@code s} of the rate's work falls behind by {@code (1 - s)} of the step's length.</li>
 * </ol>
 */
record StepVerdict(boolean passed, List<String> failures) {
    static final double MIN_SENT_SHARE = 0.95;
    static final int MAX_SEAL_P99_INTERVALS = 2;
    static final int MAX_LAG_GROWTH_INTERVALS = 2;

    StepVerdict {
        failures = List.copyOf(failures);
    }

    static StepVerdict of(StepFigures step, long intervalMs) {
        List<String> failures = new ArrayList<>();
        if (step.sentPerSecond() < MIN_SENT_SHARE * step.rate()) {
            failures.add(String.format("producer sent %.0f/s < %.0f%% of the rate", step.sentPerSecond(),
                100 * MIN_SENT_SHARE));
        }
        if (step.intervalsSealed() == 0) {
            failures.add("no interval sealed");
        } else if (step.sealP99Ms() > MAX_SEAL_P99_INTERVALS * intervalMs) {
            failures.add("seal p99 " + step.sealP99Ms() + " ms > " + MAX_SEAL_P99_INTERVALS * intervalMs + " ms");
        }
        if (step.sealLagGrowthMs() > MAX_LAG_GROWTH_INTERVALS * intervalMs) {
            failures.add("seal lag grew " + step.sealLagGrowthMs() + " ms > " + MAX_LAG_GROWTH_INTERVALS * intervalMs + " ms");
        }
        return new StepVerdict(failures.isEmpty(), failures);
    }

    @Override
    public String toString() {
        return passed ? "pass" : "FAIL: " + String.join("; ", failures);
    }
}
