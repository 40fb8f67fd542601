package io.mvsink.bench;

import io.mvsink.batch.CoalescingMode;
import io.mvsink.config.SubjectNameStrategy;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.registry.RegistryClient;
import io.mvsink.registry.RegistrySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * grid), each until caught up. Prints a table and the targets, writes JSON; exit code 1 if an
 * mvsink run did not catch up or its snapshot differs from the workload's model.
 */
public final class CatchUpBench {
    private static final long WORKLOAD_SEED = 11;
    private static final int WORKLOAD_KEYS = 50_000;
    private static final double RETRACT_SHARE = 0.3;

    private CatchUpBench() {
    }

    public static int run(CatchUpOptions options) throws Exception {
        Path work = Files.createTempDirectory("mvsink-catchup");
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000);
        String topic = "catchup-" + runId + "-corrections";
        List<CatchUpFigures> figures = new ArrayList<>();
        List<SubscriberFigures> subscribers = new ArrayList<>();
        System.err.println("bench: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1; child logs in " + work);
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            CatchUpRunner runner = runner(stack, options, work, runId, topic);
            System.err.println("bench: plain consumer");
            figures.add(runner.consumer());
            if (!options.skipReference()) {
                System.err.println("bench: plain exactly-once Streams app (one get and one put per record)");
                figures.add(runner.reference());
            }
            for (CoalescingMode mode : options.modes()) {
                System.err.println("bench: mvsink " + mode.configName() + " on the "
                    + CatchUpFigures.grid(options.intervalMs()) + " grid");
                figures.add(runner.mvsink(mode, options.intervalMs(), "default"));
            }
            if (options.wideIntervalMs() > 0) {
                System.err.println("bench: mvsink barrier on the " + CatchUpFigures.grid(options.wideIntervalMs())
                    + " grid, -Xmx" + options.wideHeap());
                figures.add(runner.mvsink(CoalescingMode.BARRIER, options.wideIntervalMs(), options.wideHeap()));
            }
            subscribers = runner.subscribers();
        }
        System.out.printf("mvsink bench --scenario catch-up: %d updates preloaded on %d partitions (progress every %d "
                + "updates, event time 1-2 x %d ms per step), %d stream threads%n%n", options.updates(),
            options.partitions(), options.updatesPerStep(), options.intervalMs(), options.threads());
        System.out.println(CatchUpTable.format(figures));
        if (!subscribers.isEmpty()) {
            System.out.println("--subscribe: a subscriber in the bench's JVM follows each mvsink run's shard from its "
                + "first append; lag = from a seal's commit (first readable) to its delivery");
            System.out.println(SubscriberFigures.format(subscribers));
        }
        System.out.println("targets:");
        CatchUpTargets.check(figures, options).forEach(System.out::println);
        subscribers.forEach(s -> System.out.println(s.targetLine()));
        writeJson(options, figures, subscribers);
        System.out.println("\nfigures written to " + options.out().toAbsolutePath());
        boolean correct = figures.stream().filter(CatchUpFigures::isMvsink)
            .allMatch(f -> f.completed() && f.snapshot().equalsModel())
            && subscribers.stream().allMatch(s -> s.sumEqualsModel() && s.failure() == null);
        if (!correct) {
            System.out.println("FAILED: an mvsink run did not catch up, or its snapshot or a subscriber's sum differs "
                + "from the model (see above)");
        }
        return correct ? 0 : 1;
    }

    /**
     * Preloads {@code topic} with the backlog {@code options} describe (the workload seeded as in
     * every catch-up run) and returns a runner for the programs that catch it up.
     */
    static CatchUpRunner runner(LocalStack stack, CatchUpOptions options, Path work, String runId, String topic)
        throws Exception {
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        PreloadPlan plan = PreloadPlan.of(options.updates(), options.updatesPerStep(), options.intervalMs(),
            options.alignMs(), System.currentTimeMillis(), WORKLOAD_SEED);
        Workload workload = new Workload(WORKLOAD_SEED, WORKLOAD_KEYS, RETRACT_SHARE);
        Map<TopicPartition, Long> end = preload(stack, client, topic, options, plan, workload);
        Map<String, Long> model = new TreeMap<>();
        workload.model().forEach((row, count) -> model.put(GenericData.get().toString(row), count));
        return new CatchUpRunner(stack, options, work, runId, topic, plan, model, end);
    }

    /** Creates the topic and preloads it; returns its end offsets. */
    private static Map<TopicPartition, Long> preload(LocalStack stack, Map<String, Object> client, String topic,
                                                     CatchUpOptions options, PreloadPlan plan, Workload workload)
        throws Exception {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, options.partitions(), (short) 1))).all().get(60, TimeUnit.SECONDS);
            Map<String, Object> producerProps = new LinkedHashMap<>(client);
            producerProps.put("linger.ms", 20);
            producerProps.put("batch.size", 256 * 1024);
            // the runs' apps name their rows' subject by the default strategy
            String subject = SubjectNameStrategy.TOPIC_NAME.subject(topic, "");
            try (CorrectionProducer producer = new CorrectionProducer(producerProps, topic, subject,
                    new RegistryClient(RegistrySettings.of(stack.registryUrl())))) {
                Preload.send(producer, workload, plan);
            }
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int p = 0; p < options.partitions(); p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
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

    private static void writeJson(CatchUpOptions options, List<CatchUpFigures> figures,
                                  List<SubscriberFigures> subscribers) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> opts = backlogOptions("catch-up", options);
        opts.put("wide_interval_ms", options.wideIntervalMs());
        opts.put("wide_heap", options.wideHeap());
        opts.put("modes", options.modes().stream().map(CoalescingMode::configName).toList());
        opts.put("subscribe", options.subscribe());
        doc.put("options", opts);
        doc.put("runs", figures.stream().map(CatchUpFigures::toMap).toList());
        if (!subscribers.isEmpty()) {
            doc.put("subscribers", subscribers.stream().map(SubscriberFigures::toMap).toList());
        }
        doc.put("ratios", CatchUpRatios.of(figures, options));
        doc.put("targets", CatchUpTargets.check(figures, options).stream().map(c -> Map.of(
            "target", c.target(), "measured", c.measured(), "verdict", c.verdict().name().toLowerCase(Locale.ROOT)))
            .toList());
        BenchJson.write(options.out(), doc);
    }
}
