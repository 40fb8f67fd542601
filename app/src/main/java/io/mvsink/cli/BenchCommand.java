package io.mvsink.cli;

import io.mvsink.batch.CoalescingMode;
import io.mvsink.bench.Bench;
import io.mvsink.bench.BenchOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", description = "Starts a local Kafka broker, Apicurio Registry and Azurite and runs the same "
    + "workload in each coalescing mode; prints blob writes, batches and parts per append, consensus bytes, "
    + "throughput and seal latency with their ratios to mode none, and writes them as JSON.")
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--duration-s", defaultValue = "60", description = "Seconds of producing per mode (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--rate", defaultValue = "2000", description = "Updates per second (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--partitions", defaultValue = "8", description = "Corrections partitions (default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--threads", defaultValue = "8", description = "Stream threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--modes", defaultValue = "none,best-effort,barrier", split = ",",
        description = "Coalescing modes, run in this order (default ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--interval-ms", defaultValue = "1000", description = "batch.interval.ms (default ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(names = "--out", defaultValue = "bench-result.json", paramLabel = "FILE",
        description = "JSON result file (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--warmup-s", defaultValue = "15",
        description = "Seconds of an unmeasured run of the first mode before the measured ones (default ${DEFAULT-VALUE}).")
    long warmupSeconds;

    @Override
    public Integer call() throws Exception {
        List<CoalescingMode> parsed = modes.stream().map(BenchCommand::mode).toList();
        return Bench.run(new BenchOptions(durationSeconds, rate, partitions, threads, parsed, intervalMs, out, warmupSeconds));
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
