package io.mvsink.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one mode of the bench measured. Counts are the mode's own: a fresh app, metrics, blob
 * store (write counter) and consensus topic per mode.
 */
public record BenchFigures(
    String mode,
    long updatesSent,
    long updatesProcessed,
    double producingSeconds,
    long blobWriteRequests,
    long appends,
    long intervalsSealed,
    long batchesAppended,
    long partsAppended,
    long diffBytes,
    long sealP50Ms,
    long sealP99Ms,
    long sealMaxMs,
    long barrierTimeouts,
    long batchesBuilt,
    long participants,
    long recontributions,
    long mismatches,
    long lateUpdates,
    long builderRefusals,
    long orphanedBatches,
    int snapshotRows,
    boolean snapshotEqualsModel) {

    /** Updates processed by the app during the producing phase, per second of that phase. */
    public double updatesPerSecond() {
        return producingSeconds <= 0 ? 0 : updatesProcessed / producingSeconds;
    }

    /** What the producer managed to send per second (below the rate when it cannot keep up itself). */
    public double sentPerSecond() {
        return producingSeconds <= 0 ? 0 : updatesSent / producingSeconds;
    }

    public double blobWritesPerInterval() {
        return per(blobWriteRequests, intervalsSealed);
    }

    public double batchesPerAppend() {
        return per(batchesAppended, appends);
    }

    public double partsPerAppend() {
        return per(partsAppended, appends);
    }

    public double diffBytesPerAppend() {
        return per(diffBytes, appends);
    }

    public double participantsPerBatch() {
        return per(participants, batchesBuilt);
    }

    private static double per(long n, long d) {
        return d == 0 ? 0 : (double) n / d;
    }

    /** The headline figures and the raw counts behind them, in a stable order. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode);
        m.put("blob_writes_per_interval", blobWritesPerInterval());
        m.put("batches_per_append", batchesPerAppend());
        m.put("parts_per_append", partsPerAppend());
        m.put("diff_bytes_per_append", diffBytesPerAppend());
        m.put("updates_per_second", updatesPerSecond());
        m.put("sent_per_second", sentPerSecond());
        m.put("seal_latency_p50_ms", sealP50Ms);
        m.put("seal_latency_p99_ms", sealP99Ms);
        m.put("seal_latency_max_ms", sealMaxMs);
        m.put("snapshot_equals_model", snapshotEqualsModel);
        m.put("participants_per_batch", participantsPerBatch());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("updates_sent", updatesSent);
        counts.put("updates_processed", updatesProcessed);
        counts.put("producing_seconds", producingSeconds);
        counts.put("blob_write_requests", blobWriteRequests);
        counts.put("appends", appends);
        counts.put("intervals_sealed", intervalsSealed);
        counts.put("batches_appended", batchesAppended);
        counts.put("parts_appended", partsAppended);
        counts.put("diff_bytes", diffBytes);
        counts.put("barrier_timeouts", barrierTimeouts);
        counts.put("batches_built", batchesBuilt);
        counts.put("participants", participants);
        counts.put("recontributions", recontributions);
        counts.put("mismatches", mismatches);
        counts.put("late_updates", lateUpdates);
        counts.put("builder_refusals", builderRefusals);
        counts.put("orphaned_batches", orphanedBatches);
        counts.put("snapshot_rows", snapshotRows);
        m.put("counts", counts);
        return m;
    }

    /** Writes the run's options and every mode's figures as one JSON document. */
    public static void writeJson(Path file, BenchOptions options, List<BenchFigures> figures) {
        writeJson(file, options, figures, List.of());
    }

    /** As above, with the figures of the subscribers that followed the modes (under "subscribers", if any). */
    static void writeJson(Path file, BenchOptions options, List<BenchFigures> figures,
                          List<SubscriberFigures> subscribers) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> opts = new LinkedHashMap<>();
        opts.put("duration_s", options.durationSeconds());
        opts.put("rate", options.rate());
        opts.put("partitions", options.partitions());
        opts.put("threads", options.threads());
        opts.put("interval_ms", options.intervalMs());
        opts.put("warmup_s", options.warmupSeconds());
        opts.put("subscribe", options.subscribe());
        doc.put("options", opts);
        doc.put("modes", figures.stream().map(BenchFigures::toMap).toList());
        if (!subscribers.isEmpty()) {
            doc.put("subscribers", subscribers.stream().map(SubscriberFigures::toMap).toList());
        }
        BenchJson.write(file, doc);
    }
}
