package io.mvsink.bench;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one step of the max-rate bench measured, over the step's wall time only (counters as
 * differences from its start to its end).
 *
 * @param rate             the producer's target, updates/s
 * @param seconds          the step's wall time
 * @param sent             updates the producer sent in the step
 * @param processed        updates the app read in the step ({@code ShardMetrics.updates()})
 * @param seals            seal latencies recorded in the step: their count (appends that sealed)
 * @param sealP50Ms        p50 of those latencies (0 if none)
 * @param sealP99Ms        p99 of those latencies (0 if none)
 * @param intervalsSealed  intervals sealed in the step
 * @param appends          appends in the step
 * @param batchesAppended  batches those appends added
 * @param blobWrites       blob write requests in the step
 * @param sealLagStartMs   seal lag when the step started: wall clock minus the sealed upper (see {@link StepVerdict})
 * @param sealLagEndMs     seal lag when the step ended
 * @param backlog          updates sent but not yet read by the app, at the step's end (since producing began)
 * @param sinkCpuSeconds   CPU of the bench's JVM in the step minus its producer's threads: the app's
 * @param producerCpuSeconds CPU of the producer's threads (the sending thread and the Kafka producer's I/O thread)
 */
record StepFigures(double rate, double seconds, long sent, long processed, long seals, long sealP50Ms, long sealP99Ms,
                   long intervalsSealed, long appends, long batchesAppended, long blobWrites, long sealLagStartMs,
                   long sealLagEndMs, long backlog, double sinkCpuSeconds, double producerCpuSeconds) {

    @JsonProperty
    double sentPerSecond() {
        return seconds <= 0 ? 0 : sent / seconds;
    }

    @JsonProperty
    double processedPerSecond() {
        return seconds <= 0 ? 0 : processed / seconds;
    }

    @JsonProperty
    long sealLagGrowthMs() {
        return sealLagEndMs - sealLagStartMs;
    }

    /** The app's CPU as a share of one core (200% is both cores of the 2-core machine). */
    @JsonProperty
    double sinkCpuPercent() {
        return seconds <= 0 ? 0 : 100 * sinkCpuSeconds / seconds;
    }

    @JsonProperty
    double producerCpuPercent() {
        return seconds <= 0 ? 0 : 100 * producerCpuSeconds / seconds;
    }

    @JsonProperty
    double blobWritesPerInterval() {
        return intervalsSealed == 0 ? 0 : (double) blobWrites / intervalsSealed;
    }

    @JsonProperty
    double batchesPerAppend() {
        return appends == 0 ? 0 : (double) batchesAppended / appends;
    }
}
