package io.mvsink.bench;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.avro.StateDiff;
import io.mvsink.batch.CoalescingMode;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.read.SnapshotReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;

/**
 * One mode of the bench: a fresh app (application id, corrections topic, metrics, blob store
 * and its write counter) on the shared local stack, fed by a steady producer for the run's
 * duration, then sealed through the last update and read back.
 */
final class BenchRun {
    private static final long WORKLOAD_SEED = 7;
    private static final int WORKLOAD_KEYS = 5_000;
    private static final double RETRACT_SHARE = 0.3;
    static final long PROGRESS_EVERY_MS = 200;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration SEAL_TIMEOUT = Duration.ofSeconds(180);

    private final LocalStack stack;
    private final BenchOptions options;
    private final Path work;
    private final String runId;
    private final List<SubscriberFigures> subscribers = new ArrayList<>();

    BenchRun(LocalStack stack, BenchOptions options, Path work, String runId) {
        this.stack = stack;
        this.options = options;
        this.work = work;
        this.runId = runId;
    }

    /** What a run's app and producer are, for its producing phase. */
    record Live(CoalescingMode mode, MvsinkConfig config, Map<String, Object> client, ShardMetrics metrics,
                BlobStore blobs, WorkloadRunner runner) {
    }

    /** What a producing phase sent, over how long, and what the app had read by its end. */
    record Produced(long sent, double seconds, long processed) {
    }

    /** The producing phase of a run: sends the workload through the live run's runner. */
    interface Producing {
        Produced produce(Live live) throws Exception;
    }

    /** The steady bench's mode: {@link #run(CoalescingMode, Producing)} at the options' rate for their duration. */
    BenchFigures run(CoalescingMode mode) throws Exception {
        return run(mode, this::steady);
    }

    /**
     * A fresh app in {@code mode}, running until it is RUNNING; then {@code producing} sends the
     * workload; then the run seals through the last update, reads the snapshot back and measures.
     */
    BenchFigures run(CoalescingMode mode, Producing producing) throws Exception {
        MvsinkConfig config = new MvsinkConfig(properties(mode));
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(config.correctionsTopic(), options.partitions(), (short) 1)))
                .all().get(60, TimeUnit.SECONDS);
        }
        Workload workload = new Workload(WORKLOAD_SEED, WORKLOAD_KEYS, RETRACT_SHARE);
        String subject = config.rowSubject();
        SubscriberProbe probe = null;
        try (MvsinkApp.Dependencies deps = Wiring.dependencies(config);
             MvsinkApp app = new MvsinkApp(config, deps);
             CorrectionProducer producer = new CorrectionProducer(producerProps(client, config), config.correctionsTopic(),
                 subject, deps.registry())) {
            deps.registry().register(subject, Workload.ROW_SCHEMA);
            deps.registry().setCompatibility(subject, "BACKWARD");
            app.start();
            awaitRunning(app, mode);
            probe = options.subscribe() ? SubscriberProbe.start(config, subject) : null;
            long blobsBefore = deps.blobs().writeRequests();

            WorkloadRunner runner = new WorkloadRunner(producer, workload, Time.SYSTEM);
            Produced produced = producing.produce(new Live(mode, config, client, app.metrics(), deps.blobs(), runner));

            Progress progress = new Progress(mode, options.durationSeconds(), app.metrics(), deps.blobs());
            long upper = runner.sealThrough(config.batchIntervalMs());
            ShardState state = awaitSeal(config, client, upper, SEAL_TIMEOUT,
                () -> progress.print(runner.sent(), "sealing"));
            progress.done();
            long blobWrites = deps.blobs().writeRequests() - blobsBefore;
            List<StateDiff> diffs = ConsensusReader.diffs(client, config.consensusTopic(), config.shard(),
                Duration.ofSeconds(60));
            ConsensusFigures consensus = ConsensusFigures.of(
                diffs.stream().filter(d -> !ShardState.isCompaction(d)).toList(), config.batchIntervalMs());

            Map<String, Long> snapshot = new SnapshotReader(deps.blobs(), deps.registry(),
                subject).read(state, state.upper() - 1);
            Map<String, Long> model = new TreeMap<>();
            workload.model().forEach((row, count) -> model.put(GenericData.get().toString(row), count));
            if (probe != null) {
                subscribers.add(probe.finish(mode.configName(), "steady", options.intervalMs(), state.upper(),
                    SEAL_TIMEOUT, diffs, model));
            }
            return figures(mode, app.metrics(), produced, blobWrites, consensus, snapshot.size(), snapshot.equals(model));
        } finally {
            if (probe != null) {
                probe.close();
            }
        }
    }

    /** The steady bench's producing phase: the options' rate for their duration. */
    private Produced steady(Live live) throws InterruptedException {
        Progress progress = new Progress(live.mode(), options.durationSeconds(), live.metrics(), live.blobs());
        long startNanos = System.nanoTime();
        CompletableFuture<Long> producing = CompletableFuture.supplyAsync(() -> live.runner().run(
            options.rate(), options.durationSeconds() * 1000, Long.MAX_VALUE, PROGRESS_EVERY_MS, n -> { }));
        while (!producing.isDone()) {
            progress.print(live.runner().sent(), "producing");
            Thread.sleep(1000);
        }
        long sent = producing.join();
        return new Produced(sent, (System.nanoTime() - startNanos) / 1e9, live.metrics().updates());
    }

    /** The producer's client settings: its own client id, which names its I/O thread. */
    private Map<String, Object> producerProps(Map<String, Object> client, MvsinkConfig config) {
        Map<String, Object> props = new HashMap<>(client);
        props.put("client.id", producerClientId(config));
        return props;
    }

    /** The client id of the bench's producer for {@code config}'s app. */
    static String producerClientId(MvsinkConfig config) {
        return config.applicationId() + "-bench-producer";
    }

    /** What the subscribers of the modes run so far measured, in order. */
    List<SubscriberFigures> subscribers() {
        return List.copyOf(subscribers);
    }

    private Properties properties(CoalescingMode mode) {
        String name = "bench-" + runId + "-" + mode.configName();
        Properties props = appProperties(stack, name, mode, options.threads(), options.intervalMs(), work);
        // the bench compares coalescing modes: merges and GC deletions would add blob writes of their own
        props.put(MvsinkConfig.COMPACTION_ENABLED, "false");
        props.put(MvsinkConfig.GC_INTERVAL_MS, "0");
        return props;
    }

    /** An app on the local stack named {@code name} (application id, topic {@code <name>-corrections}). */
    static Properties appProperties(LocalStack stack, String name, CoalescingMode mode, int threads, long intervalMs,
                                    Path work) {
        Properties props = new Properties();
        props.put(MvsinkConfig.APPLICATION_ID, name);
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, name + "-corrections");
        props.put(MvsinkConfig.REGISTRY_URL, stack.registryUrl());
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, stack.blobConnectionString());
        props.put(MvsinkConfig.BLOB_CONTAINER, "mvsink-bench");
        props.put(MvsinkConfig.COALESCING_MODE, mode.configName());
        props.put(MvsinkConfig.NUM_STREAM_THREADS, Integer.toString(threads));
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(intervalMs));
        props.put(MvsinkConfig.STATE_DIR, work.resolve("state-" + name).toString());
        return props;
    }


    /** Producing starts once every stream thread has its tasks, so that no mode pays for its rebalance. */
    static void awaitRunning(MvsinkApp app, CoalescingMode mode) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (app.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline || app.state() == KafkaStreams.State.ERROR) {
                throw new IllegalStateException("bench " + mode.configName() + ": app not RUNNING within "
                    + START_TIMEOUT + " (state " + app.state() + ")");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Reads the shard's consensus state every 500 ms until it is sealed through {@code upper} and returns it;
     * {@code whileWaiting} runs before each wait (progress output). Fails after {@code timeout}.
     */
    static ShardState awaitSeal(MvsinkConfig config, Map<String, Object> client, long upper, Duration timeout,
                                Runnable whileWaiting) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ShardState state = ConsensusReader.read(client, config.consensusTopic(), config.shard(), Duration.ofSeconds(30));
            if (state.upper() >= upper) {
                return state;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("bench: shard " + config.shard() + " not sealed through " + upper
                    + " within " + timeout + " (upper " + state.upper() + ")");
            }
            whileWaiting.run();
            Thread.sleep(500);
        }
    }

    private static BenchFigures figures(CoalescingMode mode, ShardMetrics m, Produced p, long blobWrites,
                                        ConsensusFigures c, int snapshotRows, boolean equal) {
        return new BenchFigures(mode.configName(), p.sent(), p.processed(), p.seconds(), blobWrites,
            c.appends(), c.intervals(), c.batches(), c.parts(), c.diffBytes(),
            m.sealLatency().percentile(50), m.sealLatency().percentile(99), m.sealLatency().max(),
            m.barrierTimeouts(), m.batchesBuilt(), m.participants(), m.recontributions(), m.mismatches(),
            m.lateUpdates(), m.builderRefusals(), m.orphanedBatches(), snapshotRows, equal);
    }
}
