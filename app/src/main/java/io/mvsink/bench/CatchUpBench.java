package io.mvsink.bench;

import io.mvsink.protocol.CoalescingMode;
import io.mvsink.config.SubjectNameStrategy;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.CorrectionSource;
import io.mvsink.registry.RegistryClient;
import io.mvsink.registry.RegistrySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The catch-up benchmark: a backlog preloaded once, then, one after another in child JVMs of
 * their own, a plain consumer reading it, a plain exactly-once Streams app doing one store get
 * and put per record, and mvsink from scratch in each coalescing mode (and barrier on a wide
 * grid), each until caught up; all of it once per workload ({@link CatchUpWorkload}), each on a
 * topic of its own. Prints a table and the targets per workload, writes JSON; exit code 1 if an
 * mvsink run did not catch up or its snapshot differs from the workload's model.
 */
public final class CatchUpBench {
    private CatchUpBench() {
    }

    public static int run(CatchUpOptions options) throws Exception {
        Path work = Files.createTempDirectory("mvsink-catchup");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
        List<CatchUpResult> results = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1; child logs in " + work);
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            for (CatchUpWorkload workload : options.workloads()) {
                // the narrow workload keeps the names it had before there were two
                String id = workload == CatchUpWorkload.NARROW ? runId : runId + "-" + workload.label();
                results.add(run(stack, options, work, id, workload));
            }
        }
        System.out.printf("mvsink bench --scenario catch-up: %d updates preloaded on %d partitions (progress every %d "
                + "updates, event time 1-2 x %d ms per step), %d stream threads, per workload%n%n", options.updates(),
            options.partitions(), options.updatesPerStep(), options.intervalMs(), options.threads());
        results.forEach(r -> System.out.println(r.report(options)));
        writeJson(options, results);
        System.out.println("figures written to " + options.out().toAbsolutePath());
        boolean correct = results.stream().allMatch(CatchUpResult::correct);
        if (!correct) {
            System.out.println("FAILED: an mvsink run did not catch up, or its snapshot or a subscriber's sum differs "
                + "from the model (see above)");
        }
        return correct ? 0 : 1;
    }

    /** Preloads {@code workload} on a topic of its own and runs every program over it. */
    private static CatchUpResult run(LocalStack stack, CatchUpOptions options, Path work, String runId,
                                     CatchUpWorkload workload) throws Exception {
        String topic = "catchup-" + runId + "-corrections";
        System.err.println("bench: workload " + workload.label() + ", topic " + topic);
        Prepared prepared = prepare(stack, options, work, runId, topic, workload);
        CatchUpRunner runner = prepared.runner();
        List<CatchUpFigures> figures = new ArrayList<>();
        System.err.println("bench: plain consumer");
        figures.add(runner.consumer());
        if (!options.skipReference()) {
            System.err.println("bench: plain exactly-once Streams app (one get and one put per record)");
            figures.add(runner.reference());
        }
        for (CoalescingMode mode : options.modes()) {
            System.err.println("bench: mvsink " + mode.configName() + " on the "
                + CatchUpFigures.grid(options.intervalMs()) + " grid");
            figures.add(runner.mvsink(mode, options.intervalMs(), options.heap()));
        }
        if (options.wideIntervalMs() > 0) {
            System.err.println("bench: mvsink barrier on the " + CatchUpFigures.grid(options.wideIntervalMs())
                + " grid, -Xmx" + options.wideHeap());
            figures.add(runner.mvsink(CoalescingMode.BARRIER, options.wideIntervalMs(), options.wideHeap()));
        }
        return new CatchUpResult(workload, figures, runner.subscribers(), prepared.sent().late());
    }

    /**
     * Preloads {@code topic} with the narrow workload's backlog {@code options} describe (seeded as
     * in every catch-up run) and returns a runner for the programs that catch it up.
     */
    static CatchUpRunner runner(LocalStack stack, CatchUpOptions options, Path work, String runId, String topic)
        throws Exception {
        return prepare(stack, options, work, runId, topic, CatchUpWorkload.NARROW).runner();
    }

    /** A runner over a preloaded topic, and what the preload sent. */
    private record Prepared(CatchUpRunner runner, Preload.Sent sent) {
    }

    /** Preloads {@code topic} with {@code workload}'s backlog; the runner compares with its model. */
    private static Prepared prepare(LocalStack stack, CatchUpOptions options, Path work, String runId, String topic,
                                    CatchUpWorkload workload) throws Exception {
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        PreloadPlan plan = PreloadPlan.of(options.updates(), options.updatesPerStep(), options.intervalMs(),
            options.alignMs(), System.currentTimeMillis(), CatchUpWorkload.SEED);
        CorrectionSource source = workload.source();
        Preloaded preloaded = preload(stack, client, topic, options, plan, source);
        Map<String, Long> model = new TreeMap<>();
        source.model().forEach((row, count) -> model.put(GenericData.get().toString(row), count));
        return new Prepared(new CatchUpRunner(stack, options, work, runId, topic, plan, model, preloaded.end()),
            preloaded.sent());
    }

    /** The preload's end offsets and what it sent. */
    private record Preloaded(Map<TopicPartition, Long> end, Preload.Sent sent) {
    }

    /** Creates the topic and preloads it (registering the row schema under the topic's subject). */
    private static Preloaded preload(LocalStack stack, Map<String, Object> client, String topic,
                                     CatchUpOptions options, PreloadPlan plan, CorrectionSource source)
        throws Exception {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, options.partitions(), (short) 1))).all().get(60, TimeUnit.SECONDS);
            Map<String, Object> producerProps = new LinkedHashMap<>(client);
            producerProps.put("linger.ms", 20);
            producerProps.put("batch.size", 256 * 1024);
            // the runs' apps name their rows' subject by the default strategy
            String subject = SubjectNameStrategy.TOPIC_NAME.subject(topic, "");
            Preload.Sent sent;
            try (CorrectionProducer producer = new CorrectionProducer(producerProps, topic, subject,
                    new RegistryClient(RegistrySettings.of(stack.registryUrl())))) {
                sent = Preload.send(producer, source, plan);
            }
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int p = 0; p < options.partitions(); p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return new Preloaded(admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset())), sent);
        }
    }

    /** The JSON result's options that describe the backlog and the runs' grid, threads and partitions. */
    static Map<String, Object> backlogOptions(String scenario, CatchUpOptions options) {
        Map<String, Object> opts = new LinkedHashMap<>();
        opts.put("scenario", scenario);
        opts.put("updates", options.updates());
        opts.put("partitions", options.partitions());
        opts.put("threads", options.threads());
        opts.put("updates_per_progress", options.updatesPerStep());
        opts.put("interval_ms", options.intervalMs());
        return opts;
    }

    /**
     * The JSON: the options, then one workload's runs, ratios and targets at the top level (the
     * shape of a single-workload run), or with {@code --workload both} each workload's under
     * {@code workloads.<name>}.
     */
    private static void writeJson(CatchUpOptions options, List<CatchUpResult> results) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> opts = backlogOptions("catch-up", options);
        opts.put("wide_interval_ms", options.wideIntervalMs());
        opts.put("wide_heap", options.wideHeap());
        opts.put("heap", options.heap());
        opts.put("modes", options.modes().stream().map(CoalescingMode::configName).toList());
        opts.put("subscribe", options.subscribe());
        opts.put("workloads", options.workloads().stream().map(CatchUpWorkload::label).toList());
        doc.put("options", opts);
        if (results.size() == 1) {
            doc.putAll(results.get(0).toMap(options));
        } else {
            Map<String, Object> byWorkload = new LinkedHashMap<>();
            results.forEach(r -> byWorkload.put(r.workload().label(), r.toMap(options)));
            doc.put("workloads", byWorkload);
        }
        BenchJson.write(options.out(), doc);
    }
}
