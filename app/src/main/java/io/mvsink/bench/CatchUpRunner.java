package io.mvsink.bench;

import io.mvsink.Wiring;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.console.ProgressLine;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.read.SnapshotReader;
import io.mvsink.registry.SchemaRegistry;
import java.io.IOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs each program of the catch-up bench over the preloaded topic in a child JVM of its own,
 * until it has caught up (or the run timeout passes), and measures it. Each mvsink run gets its own
 * application id, consensus topic, blob prefix and state directory, and reads the same topic.
 */
final class CatchUpRunner {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);

    private final LocalStack stack;
    private final CatchUpOptions options;
    private final Path work;
    private final String runId;
    private final String topic;
    private final PreloadPlan plan;
    private final Map<String, Long> model;
    private final Map<TopicPartition, Long> endOffsets;
    private final Map<String, Object> client;
    private final List<SubscriberFigures> subscribers = new ArrayList<>();

    CatchUpRunner(LocalStack stack, CatchUpOptions options, Path work, String runId, String topic, PreloadPlan plan,
                  Map<String, Long> model, Map<TopicPartition, Long> endOffsets) {
        this.stack = stack;
        this.options = options;
        this.work = work;
        this.runId = runId;
        this.topic = topic;
        this.plan = plan;
        this.model = model;
        this.endOffsets = endOffsets;
        this.client = Map.of("bootstrap.servers", stack.bootstrapServers());
    }

    /** The plain consumer, until it has read every record to the end offsets. */
    CatchUpFigures consumer() throws InterruptedException {
        Path result = consumerResult(work, runId);
        try (ChildJvm child = ChildJvm.start("plain consumer", List.of(), PlainConsumer.class.getName(),
                List.of(stack.bootstrapServers(), topic, result.toString()), work.resolve("catchup-" + runId + "-consumer.log"))) {
            boolean done = await(child, () -> Files.exists(result), () -> Thread.sleep(POLL.toMillis() / 4));
            double seconds = secondsSince(child.launchedNanos());
            ProcSample usage = child.stop(STOP_GRACE);
            return new CatchUpFigures(CatchUpFigures.CONSUMER, 0, "default", plan.updates(), done, seconds,
                Double.NaN, usage, null, null, Map.of());
        }
    }

    /**
     * The file the plain consumer of run {@code runId} writes when it has read to the end: one per
     * run id, so that a second workload's consumer in the same work directory is not done at once.
     */
    static Path consumerResult(Path work, String runId) {
        return work.resolve("catchup-" + runId + "-consumer-result.txt");
    }

    /** The reference Streams app, until its group has committed offsets up to the end offsets. */
    CatchUpFigures reference() throws InterruptedException {
        String appId = "catchup-" + runId + "-reference";
        long[] firstCommit = {-1};
        try (Admin admin = Admin.create(client);
             ChildJvm child = ChildJvm.start("plain Streams app", List.of(), ReferenceApp.class.getName(),
                 List.of(stack.bootstrapServers(), topic, appId, Integer.toString(options.threads()),
                     work.resolve("state-" + appId).toString()), work.resolve(appId + ".log"))) {
            boolean done = await(child, () -> committedToEnd(admin, appId, firstCommit), () -> Thread.sleep(POLL.toMillis()));
            double seconds = secondsSince(child.launchedNanos());
            ProcSample usage = child.stop(STOP_GRACE);
            return new CatchUpFigures(CatchUpFigures.REFERENCE, 0, "default", plan.updates(), done, seconds,
                firstCommit[0] < 0 ? Double.NaN : secondsSince(firstCommit[0]), usage, null, null, Map.of());
        }
    }

    private boolean committedToEnd(Admin admin, String group, long[] firstCommit) {
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        } catch (Exception e) {
            return false;
        }
        if (!committed.isEmpty() && firstCommit[0] < 0) {
            firstCommit[0] = System.nanoTime();
        }
        return endOffsets.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
            && committed.get(e.getKey()).offset() >= e.getValue());
    }

    /** mvsink from scratch in {@code mode} on grid {@code intervalMs}, until the final upper is sealed. */
    CatchUpFigures mvsink(CoalescingMode mode, long intervalMs, String heap) throws Exception {
        return mvsink(mode, intervalMs, heap, "", Map.of());
    }

    /**
     * mvsink as {@link #mvsink(CoalescingMode, long, String)}, with {@code extra} options added to its
     * configuration; {@code label} (empty, or e.g. "unbounded") tells its application id from the others'.
     */
    CatchUpFigures mvsink(CoalescingMode mode, long intervalMs, String heap, String label, Map<String, String> extra)
        throws Exception {
        String appId = "catchup-" + runId + "-" + mode.configName() + "-" + intervalMs + (label.isEmpty() ? "" : "-" + label);
        Properties props = properties(appId, mode, intervalMs);
        props.putAll(extra);
        Path file = work.resolve(appId + ".properties");
        try (Writer writer = Files.newBufferedWriter(file)) {
            props.store(writer, "catch-up bench run " + appId);
        }
        MvsinkConfig config = new MvsinkConfig(props);
        long target = plan.sealableUpper(intervalMs);
        int jmxPort = freePort();
        List<String> jvm = new ArrayList<>(RemoteShardMetrics.jvmOptions(jmxPort));
        if (!heap.equals("default")) {
            jvm.add("-Xmx" + heap);
        }
        try (ConsensusFollower follower = new ConsensusFollower(client, config.consensusTopic(), config.shard());
             SubscriberProbe probe = options.subscribe() ? SubscriberProbe.start(config, config.rowSubject()) : null;
             ChildJvm child = ChildJvm.start(appId, jvm, "io.mvsink.cli.Main", List.of("run", "--config", file.toString()),
                 work.resolve(appId + ".log"))) {
            long[] printed = {System.nanoTime()};
            ProgressLine progress = ProgressLine.onStderr();
            boolean done = await(child, () -> follower.upper() >= target, () -> {
                follower.poll(POLL);
                if (System.nanoTime() - printed[0] > 1_000_000_000L) {
                    progress.update(String.format("[%s %4.0f s] upper %d of %d | seals %d | batches %d", appId,
                        secondsSince(child.launchedNanos()), follower.upper(), target, follower.seals(), follower.batches()));
                    printed[0] = System.nanoTime();
                }
            });
            progress.end();
            double seconds = secondsSince(child.launchedNanos());
            double fromFirst = follower.firstAppendNanos() < 0 ? Double.NaN : secondsSince(follower.firstAppendNanos());
            Map<String, Object> jmx = child.isAlive() ? RemoteShardMetrics.read(jmxPort, config.shard()) : Map.of();
            ProcSample usage = child.isAlive() ? child.stop(STOP_GRACE) : new ProcSample(0, 0);
            if (!done) {
                System.err.println("bench: " + appId + " did not seal " + target + " (upper " + follower.upper()
                    + "); its log: " + child.log());
            }
            SealAndSnapshot read = readBack(config);
            if (probe != null) {
                subscribers.add(probe.finish(appId, "catch-up", intervalMs, follower.upper(), options.runTimeout(),
                    ConsensusReader.diffs(client, config.consensusTopic(), config.shard(), READ_TIMEOUT), model));
            }
            SealCounts seals = new SealCounts(follower.seals(), follower.batches(), follower.parts(), read.blobs(),
                jmx.get("blob-puts-total") instanceof Number n ? n.longValue() : -1);
            return new CatchUpFigures(mode.configName(), intervalMs, heap, plan.updates(), done, seconds, fromFirst,
                usage, seals, read.snapshot(), jmx);
        }
    }

    /** What the subscribers of the mvsink runs so far measured, in order. */
    List<SubscriberFigures> subscribers() {
        return List.copyOf(subscribers);
    }

    private record SealAndSnapshot(long blobs, CatchUpFigures.SnapshotCheck snapshot) {
    }

    /** The blobs under the run's prefix and its snapshot as of its upper, compared with the model. */
    private SealAndSnapshot readBack(MvsinkConfig config) {
        SchemaRegistry registry = Wiring.registry(config);
        try (BlobStore blobs = Wiring.blobs(config)) {
            long stored = blobs.list(config.blobPrefix()).size();
            ShardState state = ConsensusReader.read(client, config.consensusTopic(), config.shard(), READ_TIMEOUT);
            Map<String, Long> snapshot = state.upper() == 0 ? Map.of()
                : new SnapshotReader(blobs, registry, config.rowSubject()).read(state, state.upper() - 1);
            return new SealAndSnapshot(stored, new CatchUpFigures.SnapshotCheck(snapshot.size(), snapshot.equals(model)));
        }
    }

    private Properties properties(String appId, CoalescingMode mode, long intervalMs) {
        Properties props = new Properties();
        props.put(MvsinkConfig.APPLICATION_ID, appId);
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, topic);
        props.put(MvsinkConfig.REGISTRY_URL, stack.registryUrl());
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, stack.blobConnectionString());
        props.put(MvsinkConfig.BLOB_CONTAINER, "mvsink-bench");
        props.put(MvsinkConfig.BLOB_PREFIX, appId + "/");
        props.put(MvsinkConfig.COALESCING_MODE, mode.configName());
        props.put(MvsinkConfig.NUM_STREAM_THREADS, Integer.toString(options.threads()));
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(intervalMs));
        props.put(MvsinkConfig.STATE_DIR, work.resolve("state-" + appId).toString());
        // as in the steady bench: merges and GC deletions would add blob writes that do not depend on the mode
        props.put(MvsinkConfig.COMPACTION_ENABLED, "false");
        props.put(MvsinkConfig.GC_INTERVAL_MS, "0");
        return props;
    }

    /** A step of the wait loop; may throw (the follower's poll). */
    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step} until {@code done}, the child dies, or the run timeout passes; true if done. */
    private boolean await(ChildJvm child, BooleanSupplier done, Step step) throws InterruptedException {
        long deadline = System.nanoTime() + options.runTimeout().toNanos();
        while (!done.getAsBoolean()) {
            if (!child.isAlive()) {
                System.err.println("bench: the child exited early; its log: " + child.log());
                return false;
            }
            if (System.nanoTime() > deadline) {
                System.err.println("bench: not caught up within " + options.runTimeout() + "; log: " + child.log());
                return false;
            }
            try {
                step.run();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("bench: following the run failed", e);
            }
        }
        return true;
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
