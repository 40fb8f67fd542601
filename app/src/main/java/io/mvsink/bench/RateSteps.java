package io.mvsink.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The producer rates the max-rate bench tries, in order: {@code startRate}, then each times
 * {@code factor}, while at most {@code maxRate}; each held for {@code stepSeconds}.
 *
 * @param startRate   updates/s of the first step
 * @param factor      the next step's rate over this one's, above 1
 * @param maxRate     the highest rate tried (the last step is the last product at or below it)
 * @param stepSeconds seconds each step is held
 */
public record RateSteps(double startRate, double factor, double maxRate, long stepSeconds) {
    public RateSteps {
        if (startRate <= 0) {
            throw new IllegalArgumentException("--rate-steps: the start rate must be above 0: " + startRate);
        }
        if (factor <= 1) {
            throw new IllegalArgumentException("--rate-steps: the factor must be above 1: " + factor);
        }
        if (maxRate < startRate) {
            throw new IllegalArgumentException("--rate-steps: the max rate must be at least the start rate: " + maxRate + " < " + startRate);
        }
        if (stepSeconds < 1) {
            throw new IllegalArgumentException("--step-s must be at least 1: " + stepSeconds);
        }
    }

    /** Every rate of the search, rounded to whole updates/s, the start rate first. */
    public List<Double> rates() {
        List<Double> rates = new ArrayList<>();
        // a step at the max itself is tried when the product lands on it up to rounding (2000 * 2^3 = 16000)
        for (double rate = startRate; rate <= maxRate * (1 + 1e-9); rate *= factor) {
            rates.add((double) Math.round(rate));
        }
        return rates;
    }
}
