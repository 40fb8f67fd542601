package io.mvsink.bench;

import java.util.LinkedHashMap;
import java.util.Map;

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

    double sentPerSecond() {
        return seconds <= 0 ? 0 : sent / seconds;
    }

    double processedPerSecond() {
        return seconds <= 0 ? 0 : processed / seconds;
    }

    long sealLagGrowthMs() {
        return sealLagEndMs - sealLagStartMs;
    }

    /** The app's CPU as a share of one core (200% is both cores of the 2-core machine). */
    double sinkCpuPercent() {
        return seconds <= 0 ? 0 : 100 * sinkCpuSeconds / seconds;
    }

    double producerCpuPercent() {
        return seconds <= 0 ? 0 : 100 * producerCpuSeconds / seconds;
    }

    double blobWritesPerInterval() {
        return intervalsSealed == 0 ? 0 : (double) blobWrites / intervalsSealed;
    }

    double batchesPerAppend() {
        return appends == 0 ? 0 : (double) batchesAppended / appends;
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate", rate);
        m.put("seconds", seconds);
        m.put("sent_per_second", sentPerSecond());
        m.put("processed_per_second", processedPerSecond());
        m.put("seal_latency_p50_ms", sealP50Ms);
        m.put("seal_latency_p99_ms", sealP99Ms);
        m.put("seal_lag_start_ms", sealLagStartMs);
        m.put("seal_lag_end_ms", sealLagEndMs);
        m.put("seal_lag_growth_ms", sealLagGrowthMs());
        m.put("backlog_updates", backlog);
        m.put("sink_cpu_percent", sinkCpuPercent());
        m.put("producer_cpu_percent", producerCpuPercent());
        m.put("blob_writes_per_interval", blobWritesPerInterval());
        m.put("batches_per_append", batchesPerAppend());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("sent", sent);
        counts.put("processed", processed);
        counts.put("seals", seals);
        counts.put("intervals_sealed", intervalsSealed);
        counts.put("appends", appends);
        counts.put("batches_appended", batchesAppended);
        counts.put("blob_writes", blobWrites);
        counts.put("sink_cpu_seconds", sinkCpuSeconds);
        counts.put("producer_cpu_seconds", producerCpuSeconds);
        m.put("counts", counts);
        return m;
    }
}
