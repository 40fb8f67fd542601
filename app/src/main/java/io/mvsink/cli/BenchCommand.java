package io.mvsink.cli;

import io.mvsink.protocol.CoalescingMode;
import io.mvsink.bench.Bench;
import io.mvsink.bench.BenchOptions;
import io.mvsink.bench.CatchUpBench;
import io.mvsink.bench.CatchUpOptions;
import io.mvsink.bench.CatchUpWorkload;
import io.mvsink.bench.MaxRateBench;
import io.mvsink.bench.MemoryBench;
import io.mvsink.bench.RateSteps;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.bench.QuietBench;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", description = {"Starts a local Kafka broker, Apicurio Registry and Azurite and runs a "
    + "benchmark scenario; prints a table and the targets met or missed, and writes the figures as JSON.",
    "steady (default): the same workload at a steady rate in each coalescing mode; blob writes, batches and parts "
        + "per append, consensus bytes, throughput and seal latency with their ratios to mode none.",
    "catch-up: a backlog preloaded once, then a plain consumer, a plain exactly-once Streams app and mvsink from "
        + "scratch in each mode (and barrier on a wide grid), each in its own JVM until caught up; updates/s, CPU "
        + "per update, seals, blob PUTs, batches per append, max RSS and ratios to the Streams app; per workload "
        + "(--workload).",
    "quiet: a quiet shard (--quiet-rate updates/s, barrier, compaction on) for --duration-s, with inline batches "
        + "on and off; blob PUTs per seal (part writes and all writes, merges included) and consensus bytes per seal.",
    "memory: a backlog preloaded once on --partitions (64 unless given), then mvsink (barrier) catching it up from "
        + "scratch with RocksDB unbounded and bounded by --rocksdb-memory-bytes, each in its own JVM with -Xmx of "
        + "--heap; max RSS and CPU side by side.",
    "max-rate: per mode, the steady workload at rising rates (--rate-steps: a start, times a factor, up to a max), "
        + "--step-s each, until a step fails (seal p99 above 2 batch intervals, or a seal lag that grows by more than "
        + "2 intervals); the highest rate that passed, with the app's CPU, blob writes per interval and batches per "
        + "append there."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--scenario", defaultValue = "steady", paramLabel = "steady|catch-up|quiet|memory|max-rate",
        description = "Which benchmark (default ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--duration-s", defaultValue = "60",
        description = "steady: seconds of producing per mode; quiet: per run (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--step-s", defaultValue = "60",
        description = "max-rate: seconds each rate is held (default ${DEFAULT-VALUE}).")
    long stepSeconds;

    @Option(names = "--rate", defaultValue = "2000", description = "steady: updates per second (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--rate-steps", defaultValue = "4000,2,32000", split = ",", paramLabel = "START,FACTOR,MAX",
        description = "max-rate: the first step's updates per second, each next step's rate over the previous one's "
            + "(above 1), and the highest rate tried (default ${DEFAULT-VALUE}).")
    List<Double> rateSteps;

    @Option(names = "--quiet-rate", defaultValue = "20",
        description = "quiet: updates per second of the quiet shard (default ${DEFAULT-VALUE}).")
    double quietRate;

    @Option(names = "--updates", defaultValue = "1000000",
        description = "catch-up: updates preloaded (default ${DEFAULT-VALUE}).")
    long updates;

    @Option(names = "--updates-per-progress", defaultValue = "500",
        description = "catch-up: updates between two progress records; each step's event time spans 1 or 2 "
            + "--interval-ms grid intervals (default ${DEFAULT-VALUE}).")
    int updatesPerProgress;

    @Option(names = "--wide-interval-ms", defaultValue = "600000",
        description = "catch-up: batch.interval.ms of the extra barrier run, a multiple of --interval-ms; 0 skips "
            + "it (default ${DEFAULT-VALUE}).")
    long wideIntervalMs;

    @Option(names = "--wide-heap", defaultValue = "512m",
        description = "catch-up: -Xmx of the wide-grid barrier run's JVM (default ${DEFAULT-VALUE}).")
    String wideHeap;

    @Option(names = "--workload", defaultValue = "narrow", paramLabel = "narrow|wide|both",
        description = "catch-up: the preloaded rows. narrow: id, category, amount. wide: 8 fields (strings with quotes, "
            + "backslashes and non-ASCII text, a nullable string and a nullable long, an array of strings, a double, a "
            + "boolean), inserts of +1 to +3, 30%% retractions of -1, -2 or a row's whole count, 0.5%% late updates "
            + "(sent below their partition's frontier; the sink advances them, the snapshot must still equal the "
            + "model). both: every run on each, two tables, JSON keyed by workload (default ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--skip-reference",
        description = "catch-up: do not run the plain Streams app (its ratios are then n/a).")
    boolean skipReference;

    @Option(names = "--run-timeout-s", defaultValue = "3600",
        description = "catch-up: seconds one program may take to catch up before it counts as not completed "
            + "(default ${DEFAULT-VALUE}).")
    long runTimeoutSeconds;

    @Option(names = "--partitions", description = "Corrections partitions (default 8; memory: 64).")
    Integer partitions;

    @Option(names = "--heap",
        description = "memory: -Xmx of both runs' JVMs (default 512m); catch-up: -Xmx of each mvsink run on the "
            + "--interval-ms grid (default: the JVM's own), e.g. 512m for a 5M-update backlog under a fixed heap.")
    String heap;

    @Option(names = "--rocksdb-memory-bytes", defaultValue = "" + MvsinkConfig.ROCKSDB_MEMORY_DEFAULT,
        description = "memory: rocksdb.memory.bytes of the bounded run (default ${DEFAULT-VALUE}).")
    long rocksdbMemoryBytes;

    @Option(names = "--threads", defaultValue = "8", description = "Stream threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--modes", defaultValue = "none,best-effort,barrier", split = ",",
        description = "Coalescing modes, run in this order; catch-up: on the --interval-ms grid (default ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--interval-ms", defaultValue = "1000",
        description = "batch.interval.ms; catch-up: the fine grid, and the preload's grid (default ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--out", defaultValue = "bench-result.json", paramLabel = "FILE",
        description = "JSON result file (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--warmup-s", defaultValue = "15",
        description = "steady, max-rate: seconds of an unmeasured run of the first mode before the measured ones (default "
            + "${DEFAULT-VALUE}).")
    long warmupSeconds;

    @Option(names = "--subscribe",
        description = "Also follow each mvsink run's shard from its first append with a subscriber (the reader API's "
            + "Subscription, in the bench's JVM) and report the changes/s it delivered and its lag behind the sealed "
            + "upper (from a seal's commit to its delivery) p50/p99/max; steady: checked against 2 batch intervals.")
    boolean subscribe;

    @Override
    public Integer call() throws Exception {
        List<CoalescingMode> parsed = modes.stream().map(BenchCommand::mode).toList();
        if (scenario.equals("memory")) {
            return MemoryBench.run(catchUp(partitions == null ? 64 : partitions, List.of(CoalescingMode.BARRIER)),
                heap == null ? "512m" : heap,
                rocksdbMemoryBytes);
        }
        int partitions = this.partitions == null ? 8 : this.partitions;
        if (scenario.equals("catch-up")) {
            return CatchUpBench.run(catchUp(partitions, parsed));
        }
        if (scenario.equals("quiet")) {
            return QuietBench.run(durationSeconds, quietRate, partitions, threads, intervalMs, out);
        }
        if (scenario.equals("max-rate")) {
            RateSteps steps = rateSteps();
            return MaxRateBench.run(new BenchOptions(steps.stepSeconds(), steps.startRate(), partitions, threads, parsed,
                intervalMs, out, warmupSeconds, false), steps);
        }
        if (!scenario.equals("steady")) {
            throw new IllegalArgumentException("--scenario: unknown scenario '" + scenario
                + "' (steady, catch-up, quiet, memory, max-rate)");
        }
        return Bench.run(new BenchOptions(durationSeconds, rate, partitions, threads, parsed, intervalMs, out, warmupSeconds,
            subscribe));
    }

    /** The max-rate scenario's steps as parsed. */
    RateSteps rateSteps() {
        if (rateSteps.size() != 3) {
            throw new IllegalArgumentException("--rate-steps: three numbers START,FACTOR,MAX, not " + rateSteps);
        }
        return new RateSteps(rateSteps.get(0), rateSteps.get(1), rateSteps.get(2), stepSeconds);
    }

    /** The catch-up scenario's options as parsed. */
    CatchUpOptions catchUpOptions() {
        return catchUp(partitions == null ? 8 : partitions, modes.stream().map(BenchCommand::mode).toList());
    }

    private CatchUpOptions catchUp(int partitions, List<CoalescingMode> parsed) {
        return new CatchUpOptions(updates, partitions, threads, parsed, intervalMs, wideIntervalMs, wideHeap,
            updatesPerProgress, skipReference, Duration.ofSeconds(runTimeoutSeconds), out, subscribe,
            CatchUpWorkload.parse(workload), heap == null ? "default" : heap);
    }

    private static CoalescingMode mode(String name) {
        try {
            return CoalescingMode.parse(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--modes: unknown coalescing mode '" + name
                + "' (none, best-effort, barrier)", e);
        }
    }
}
