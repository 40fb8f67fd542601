package io.mvsink.cli;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.console.ProgressLine;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.read.SnapshotReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", description = "Starts a local Kafka broker, Apicurio Registry and Azurite, runs the sink with "
    + "a synthetic workload, and checks that the snapshot equals what was produced.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--duration-s", defaultValue = "30", description = "Seconds of producing (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--rate", defaultValue = "2000", description = "Updates per second (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--threads", defaultValue = "4", description = "Stream threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--partitions", defaultValue = "4", description = "Corrections partitions (default ${DEFAULT-VALUE}).")
    int partitions;

    @Override
    public Integer call() throws Exception {
        Path work = Files.createTempDirectory("mvsink-demo");
        System.err.println("demo: starting Kafka, Apicurio Registry and Azurite on 127.0.0.1 ...");
        try (LocalStack stack = LocalStackLauncher.start(LocalStackOptions.defaults().withVerbose(true))) {
            MvsinkConfig config = new MvsinkConfig(demoProperties(stack, work));
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(config.correctionsTopic(), partitions, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);
            }
            Workload workload = new Workload(7, 5_000, 0.3);
            try (MvsinkApp.Dependencies deps = Wiring.dependencies(config);
                 MvsinkApp app = new MvsinkApp(config, deps);
                 CorrectionProducer producer = new CorrectionProducer(
                     Map.of("bootstrap.servers", stack.bootstrapServers()), config.correctionsTopic(), config.rowSubject(), deps.registry())) {
                deps.registry().register(config.rowSubject(), Workload.ROW_SCHEMA);
                deps.registry().setCompatibility(config.rowSubject(), "BACKWARD");
                app.start();
                WorkloadRunner runner = new WorkloadRunner(producer, workload, Time.SYSTEM);
                CompletableFuture<Long> producing = CompletableFuture.supplyAsync(
                    () -> runner.run(rate, durationSeconds * 1000, Long.MAX_VALUE, 200, n -> { }));
                long start = System.currentTimeMillis();
                ProgressLine progress = ProgressLine.onStderr();
                while (!producing.isDone()) {
                    progress.update(progressLine(app.metrics(), deps.blobs().writeRequests(), start));
                    Thread.sleep(1000);
                }
                long sent = producing.join();
                long upper = runner.sealThrough(config.batchIntervalMs());
                ShardState state = awaitSeal(config, stack, upper, () -> progress.update(
                    progressLine(app.metrics(), deps.blobs().writeRequests(), start)));
                progress.end();
                Map<String, Long> snapshot = new SnapshotReader(deps.blobs(), deps.registry(),
                    config.rowSubject()).read(state, state.upper() - 1);
                Map<String, Long> model = new TreeMap<>();
                workload.model().forEach((row, count) -> model.put(GenericData.get().toString(row), count));
                return summary(app.metrics(), deps.blobs().writeRequests(), sent, state, snapshot, model);
            }
        }
    }

    private Properties demoProperties(LocalStack stack, Path work) {
        Properties props = new Properties();
        props.put(MvsinkConfig.APPLICATION_ID, "mvsink-demo");
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "demo-corrections");
        props.put(MvsinkConfig.REGISTRY_URL, stack.registryUrl());
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, stack.blobConnectionString());
        props.put(MvsinkConfig.NUM_STREAM_THREADS, Integer.toString(threads));
        props.put(MvsinkConfig.STATE_DIR, work.resolve("state").toString());
        return props;
    }

    private static ShardState awaitSeal(MvsinkConfig config, LocalStack stack, long upper, Runnable showProgress)
        throws InterruptedException {
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            ShardState state = ConsensusReader.read(props, config.consensusTopic(), config.shard(), Duration.ofSeconds(30));
            if (state.upper() >= upper || System.currentTimeMillis() > deadline) {
                return state;
            }
            showProgress.run();
            Thread.sleep(500);
        }
    }

    private static String progressLine(ShardMetrics m, long blobWrites, long start) {
        return String.format("[%3ds] intervals sealed %d | updates %d | blob writes %d | consensus bytes %d",
            (System.currentTimeMillis() - start) / 1000, m.intervalsSealed(), m.updates(), blobWrites,
            m.consensusBytes());
    }

    private static int summary(ShardMetrics m, long blobWrites, long sent, ShardState state,
                               Map<String, Long> snapshot, Map<String, Long> model) {
        boolean equal = snapshot.equals(model);
        System.out.printf("demo summary%n  updates produced   %d%n  intervals sealed   %d%n"
                + "  appends            %d (%d seals, %d merges)%n  live batches       %d%n"
                + "  batches per seal   %.2f%n  blob writes        %d%n  consensus bytes    %d%n"
                + "  seal latency p50   %d ms, p99 %d ms%n  late updates       %d%n  dead-lettered      %d%n"
                + "  snapshot rows      %d (model %d)%n  result             %s%n",
            sent, m.intervalsSealed(), state.seqno(), m.appends(), m.compactions(), state.batches().size(),
            m.appends() == 0 ? 0.0 : (double) m.batchesAppended() / m.appends(),
            blobWrites, m.consensusBytes(), m.sealLatency().percentile(50), m.sealLatency().percentile(99),
            m.lateUpdates(), m.deadLetteredCount(), snapshot.size(), model.size(),
            equal ? "OK: the snapshot equals what was produced" : "FAILED: the snapshot differs from what was produced");
        return equal ? 0 : 1;
    }
}
