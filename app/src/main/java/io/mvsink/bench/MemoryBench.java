package io.mvsink.bench;

import io.mvsink.protocol.CoalescingMode;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory benchmark: one backlog preloaded on many partitions (64 by default), then mvsink
 * (barrier) catching it up from scratch twice, each in a child JVM with the same fixed heap: with
 * RocksDB unbounded (Kafka Streams' per-store defaults, {@code rocksdb.memory.bytes=0}) and under
 * the bound. Reports each run's peak resident set (VmHWM) and CPU from {@code /proc}, side by side.
 * The heap is fixed so that the difference in RSS is what lives outside it.
 */
public final class MemoryBench {
    /** The topology's RocksDB stores: 3 per corrections partition, the appender's (one reports partition), the global consensus mirror. */
    static final int STORES_PER_PARTITION = 3;
    static final int OTHER_STORES = 2;
    /** Kafka Streams' defaults per store: a 50 MiB block cache and 3 memtables of 16 MiB. */
    static final long DEFAULT_STORE_CEILING = (50L + 3 * 16) * 1024 * 1024;
    private static final String ROW = "%-34s %10s %9s %8s %9s %9s %11s %s%n";

    private MemoryBench() {
    }

    /** What one run measured; {@code boundBytes} 0 for the unbounded run. */
    record Run(String label, long boundBytes, CatchUpFigures figures) {
    }

    public static int run(CatchUpOptions options, String heap, long boundBytes) throws Exception {
        Path work = Files.createTempDirectory("mvsink-memory");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
        String topic = "memory-" + runId + "-corrections";
        List<Run> runs = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1; child logs in " + work);
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            CatchUpRunner runner = CatchUpBench.runner(stack, options, work, runId, topic);
            for (long bound : List.of(0L, boundBytes)) {
                String label = bound == 0 ? "unbounded" : "bounded";
                System.err.println("bench: mvsink barrier, -Xmx" + heap + ", RocksDB " + label);
                runs.add(new Run(label, bound, runner.mvsink(CoalescingMode.BARRIER, options.intervalMs(), heap, label,
                    Map.of(MvsinkConfig.ROCKSDB_MEMORY_BYTES, Long.toString(bound)))));
            }
        }
        int stores = STORES_PER_PARTITION * options.partitions() + OTHER_STORES;
        System.out.printf("mvsink bench --scenario memory: %d updates preloaded on %d partitions, %d stream threads, "
                + "barrier on the %s grid, -Xmx%s; %d RocksDB stores (Kafka Streams' defaults allow each %d MiB: "
                + "%d MiB in all)%n%n", options.updates(), options.partitions(), options.threads(),
            CatchUpFigures.grid(options.intervalMs()), heap, stores, DEFAULT_STORE_CEILING >> 20,
            stores * DEFAULT_STORE_CEILING >> 20);
        System.out.println(format(runs));
        writeJson(options, heap, stores, runs);
        System.out.println("figures written to " + options.out().toAbsolutePath());
        boolean correct = runs.stream().allMatch(r -> r.figures().completed() && r.figures().snapshot().equalsModel());
        if (!correct) {
            System.out.println("FAILED: a run did not catch up, or its snapshot differs from the model (see above)");
        }
        return correct ? 0 : 1;
    }

    static String format(List<Run> runs) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, ROW, "run", "RocksDB", "updates/s", "CPU s", "CPU s/M", "RSS MB",
            "x RSS, CPU", "snapshot"));
        out.append(String.format(Locale.ROOT, ROW, "", "bound MiB", "(launch)", "", "", "max", "vs first", ""));
        CatchUpFigures first = runs.isEmpty() ? null : runs.get(0).figures();
        for (Run run : runs) {
            CatchUpFigures f = run.figures();
            out.append(String.format(Locale.ROOT, ROW, f.name() + " " + run.label() + (f.completed() ? "" : " (INCOMPLETE)"),
                run.boundBytes() == 0 ? "none" : Long.toString(run.boundBytes() >> 20),
                String.format(Locale.ROOT, "%.0f", f.updatesPerSecondFromLaunch()),
                String.format(Locale.ROOT, "%.1f", f.usage().cpuSeconds()),
                String.format(Locale.ROOT, "%.1f", f.cpuSecondsPerMillion()),
                String.format(Locale.ROOT, "%.0f", f.usage().maxRssKb() / 1024.0),
                CatchUpTable.ratio(f.usage().maxRssKb(), first.usage().maxRssKb()) + ", "
                    + CatchUpTable.ratio(f.cpuSecondsPerMillion(), first.cpuSecondsPerMillion()),
                (f.snapshot().equalsModel() ? "equals model" : "DIFFERS") + " (" + f.snapshot().rows() + " rows)"));
        }
        return out.toString();
    }

    private static void writeJson(CatchUpOptions options, String heap, int stores, List<Run> runs) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> opts = CatchUpBench.backlogOptions("memory", options);
        opts.put("heap", heap);
        opts.put("rocksdb_stores", stores);
        doc.put("options", opts);
        doc.put("runs", runs.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rocksdb_memory_bytes", r.boundBytes());
            m.putAll(r.figures().toMap());
            m.put("run", r.figures().name() + " " + r.label());
            return m;
        }).toList());
        BenchJson.write(options.out(), doc);
    }
}
