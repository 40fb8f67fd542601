package io.mvsink.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one program of the catch-up bench measured: the plain consumer ({@code program}
 * "consumer"), the reference Streams app ("reference") or mvsink (its coalescing mode's name) on
 * grid {@code intervalMs}.
 *
 * @param secondsFromLaunch from starting the child JVM to caught up (final upper sealed, offsets
 *                          committed to the end, or read to the end)
 * @param secondsFromFirst  from the first append (mvsink) or first offset commit (reference) to
 *                          caught up; NaN for the consumer
 * @param seals             null unless mvsink
 * @param snapshot          null unless mvsink
 * @param jmx               mvsink's shard MBean as read just before it stopped (empty otherwise)
 */
record CatchUpFigures(String program, long intervalMs, String heap, long updates, boolean completed,
                      double secondsFromLaunch, double secondsFromFirst, ProcSample usage, SealCounts seals,
                      SnapshotCheck snapshot, Map<String, Object> jmx) {

    /** Whether an mvsink run's snapshot equals the workload's model. */
    record SnapshotCheck(int rows, boolean equalsModel) {
    }

    static final String CONSUMER = "consumer";
    static final String REFERENCE = "reference";

    /** The run of {@code program} on grid {@code intervalMs} (0 for the consumer and the reference), if any. */
    static Optional<CatchUpFigures> find(List<CatchUpFigures> figures, String program, long intervalMs) {
        return figures.stream().filter(f -> f.program().equals(program) && f.intervalMs() == intervalMs).findFirst();
    }

    boolean isMvsink() {
        return seals != null;
    }

    /** The run's name in the table, e.g. "barrier 1 s grid", "plain Streams app". */
    String name() {
        if (program.equals(CONSUMER)) {
            return "plain consumer";
        }
        if (program.equals(REFERENCE)) {
            return "plain Streams app";
        }
        return program + " " + grid(intervalMs) + " grid";
    }

    static String grid(long ms) {
        if (ms % 60_000 == 0) {
            return ms / 60_000 + " min";
        }
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    double updatesPerSecondFromLaunch() {
        return per(updates, secondsFromLaunch);
    }

    double updatesPerSecondFromFirst() {
        return per(updates, secondsFromFirst);
    }

    /**
     * From starting the child JVM to its first append (mvsink) or first offset commit (reference);
     * NaN for the consumer.
     */
    double secondsToFirst() {
        return secondsFromLaunch - secondsFromFirst;
    }

    /** The child's CPU (user + system) from launch to caught up, on average, in cores: 1.0 is one core busy. */
    double coresBusy() {
        return per(usage.cpuSeconds(), secondsFromLaunch);
    }

    /**
     * The whole machine's CPU (every process) from the child's launch to caught up, on average, in
     * cores; NaN if unknown. Beside {@link #coresBusy}: the cores the child left to the others (the
     * broker, registry and blob emulator of the bench) or idle.
     */
    double machineCoresBusy() {
        return per(usage.machineBusySeconds(), secondsFromLaunch);
    }

    /** CPU seconds (user + system) of the child per million updates. */
    double cpuSecondsPerMillion() {
        return updates == 0 ? Double.NaN : usage.cpuSeconds() * 1e6 / updates;
    }

    private static double per(double n, double seconds) {
        return seconds > 0 ? n / seconds : Double.NaN;
    }

    /** The figures and the raw counts behind them; NaN (not applicable) as null. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run", name());
        m.put("program", program);
        m.put("interval_ms", isMvsink() ? intervalMs : null);
        m.put("heap", heap);
        m.put("completed", completed);
        m.put("updates", updates);
        m.put("updates_per_second_from_launch", json(updatesPerSecondFromLaunch()));
        m.put("updates_per_second_from_first_append", json(updatesPerSecondFromFirst()));
        m.put("seconds_from_launch", json(secondsFromLaunch));
        m.put("seconds_from_first_append", json(secondsFromFirst));
        m.put("seconds_to_first_append", json(secondsToFirst()));
        m.put("cpu_seconds", usage.cpuSeconds());
        m.put("average_cpu_percent", json(coresBusy() * 100));
        m.put("machine_average_cpu_percent", json(machineCoresBusy() * 100));
        m.put("cpu_seconds_per_million_updates", json(cpuSecondsPerMillion()));
        m.put("max_rss_mb", usage.maxRssKb() / 1024.0);
        if (isMvsink()) {
            m.put("seals", seals.seals());
            m.put("blob_puts", seals.blobsStored());
            m.put("blob_puts_jmx", seals.blobPutsJmx());
            m.put("puts_per_seal", seals.putsPerSeal());
            m.put("batches_per_append", seals.batchesPerSeal());
            m.put("batches", seals.batches());
            m.put("parts", seals.parts());
            m.put("snapshot_rows", snapshot.rows());
            m.put("snapshot_equals_model", snapshot.equalsModel());
            m.put("jmx", jmx);
        }
        return m;
    }

    static Object json(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
