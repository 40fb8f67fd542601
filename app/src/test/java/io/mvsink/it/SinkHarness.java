package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.avro.StateDiff;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.CoverCheck;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.read.SnapshotReader;
import io.mvsink.registry.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.avro.generic.GenericData;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;

/** One shard under test on the real stack: its topics, apps, producer and readers. */
final class SinkHarness implements AutoCloseable {
    final LocalStack stack;
    final String name;
    private final String correctionsTopic;
    final int partitions;
    /** The shard's row subject, by the overrides' naming strategy (by default {@code <topic>-value}). */
    final String rowSubject;
    final SchemaRegistry registry;
    final BlobStore blobs;
    final BlobStore appBlobs;
    private final List<MvsinkApp> apps = new ArrayList<>();
    private final List<BatchCoalescer> registries = new ArrayList<>();
    private final Path stateRoot;
    private final Properties overrides;

    SinkHarness(LocalStack stack, int partitions, Properties overrides) throws Exception {
        this(stack, partitions, overrides, UnaryOperator.identity());
    }

    /** {@code blobsFor} wraps the blob store the apps write with (e.g. to inject faults). */
    SinkHarness(LocalStack stack, int partitions, Properties overrides, UnaryOperator<BlobStore> blobsFor)
            throws Exception {
        this(stack, newName(), null, partitions, overrides, blobsFor, RowSchema.REGISTERED);
        createCorrectionsTopic();
    }

    /** Whether the harness registers the workload's row schema under the row subject, or leaves it to the test. */
    enum RowSchema { REGISTERED, LEFT_TO_THE_TEST }

    /**
     * A shard whose corrections topic exists but whose subject has no version yet: its producer
     * registers the row schema itself (and sets the subject's compatibility).
     */
    static SinkHarness withoutRowSchema(LocalStack stack, int partitions, Properties overrides) throws Exception {
        return new SinkHarness(stack, partitions, overrides, RowSchema.LEFT_TO_THE_TEST);
    }

    /** A shard whose row subject the harness leaves alone: the test registers what its producer would. */
    SinkHarness(LocalStack stack, int partitions, Properties overrides, RowSchema rowSchema) throws Exception {
        this(stack, newName(), null, partitions, overrides, UnaryOperator.identity(), rowSchema);
        createCorrectionsTopic();
    }

    private void createCorrectionsTopic() throws Exception {
        try (Admin admin = Admin.create(clientProps())) {
            // the tests' update times are small logical times (1970 as timestamps): the broker's
            // time-based retention would delete them at its next check (every 5 minutes), and the
            // model read back from this topic with them
            admin.createTopics(List.of(new NewTopic(correctionsTopic(), partitions, (short) 1)
                .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1")))).all().get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * Another app (its own application id, hence its own reports and consensus topics) on
     * {@code sibling}'s corrections topic, with the same blob store: what a blue/green move or a
     * staging copy on the same storage account looks like.
     */
    SinkHarness(SinkHarness sibling, Properties overrides) throws Exception {
        this(sibling, overrides, RowSchema.REGISTERED);
    }

    SinkHarness(SinkHarness sibling, Properties overrides, RowSchema rowSchema) throws Exception {
        this(sibling.stack, newName(), sibling.correctionsTopic(), sibling.partitions, overrides,
            UnaryOperator.identity(), rowSchema);
    }

    /**
     * The same app as {@code twin} (application id, corrections topic, blob container and prefix)
     * on another Kafka cluster, {@code cluster}'s, with its own corrections topic there: staging and
     * production, or a DR pair, sharing one storage container.
     */
    SinkHarness(SinkHarness twin, LocalStack cluster, Properties overrides) throws Exception {
        this(cluster, twin.name, twin.correctionsTopic(), twin.partitions, overrides, UnaryOperator.identity(),
            RowSchema.REGISTERED);
        createCorrectionsTopic();
    }

    private SinkHarness(LocalStack stack, String name, String correctionsTopic, int partitions, Properties overrides,
                        UnaryOperator<BlobStore> blobsFor, RowSchema rowSchema) throws Exception {
        this.stack = stack;
        this.name = name;
        this.correctionsTopic = correctionsTopic != null ? correctionsTopic : name + "-corrections";
        this.partitions = partitions;
        this.overrides = overrides;
        this.stateRoot = Files.createTempDirectory("mvsink-it-state");
        MvsinkConfig config = config(0);
        this.registry = Wiring.registry(config);
        this.blobs = Wiring.blobs(config);
        this.appBlobs = blobsFor.apply(blobs);
        this.rowSubject = config.rowSubject();
        if (rowSchema == RowSchema.REGISTERED) {
            registry.register(rowSubject, Workload.ROW_SCHEMA);
            registry.setCompatibility(rowSubject, "BACKWARD");
        }
    }

    private static String newName() {
        return "it-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The owner the shard's apps write their parts with (on this harness's cluster). */
    BlobOwner blobOwner() {
        return Wiring.blobOwner(config(0));
    }

    String correctionsTopic() {
        return correctionsTopic;
    }

    Map<String, Object> clientProps() {
        return Map.of("bootstrap.servers", stack.bootstrapServers());
    }

    MvsinkConfig config(int instance) {
        Properties props = new Properties();
        props.put(MvsinkConfig.APPLICATION_ID, name);
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, correctionsTopic());
        props.put(MvsinkConfig.REGISTRY_URL, stack.registryUrl());
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, stack.blobConnectionString());
        props.put(MvsinkConfig.BLOB_CONTAINER, "mvsink-it");
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, "500");
        props.put(MvsinkConfig.STATE_DIR, stateRoot.resolve("instance-" + instance).toString());
        props.put("streams.commit.interval.ms", "100");
        props.putAll(overrides);
        return new MvsinkConfig(props);
    }

    /** Command-line arguments that point a CLI command at this shard. */
    List<String> cliArgs() {
        List<String> args = new ArrayList<>();
        config(0).originals().forEach((k, v) -> {
            args.add("--set");
            args.add(k + "=" + v);
        });
        return args;
    }

    /** Starts one more instance (same application id) with its own state dir and batch coalescer. */
    MvsinkApp startApp(int threads) {
        return startApp(threads, null);
    }

    /** Starts one more instance; with {@code shared} non-null it uses that JVM-wide batch coalescer. */
    MvsinkApp startApp(int threads, BatchCoalescer shared) {
        Properties props = new Properties();
        MvsinkConfig base = config(apps.size());
        base.originals().forEach(props::put);
        props.put(MvsinkConfig.NUM_STREAM_THREADS, Integer.toString(threads));
        MvsinkConfig config = new MvsinkConfig(props);
        BatchCoalescer batches = shared;
        if (batches == null) {
            batches = Wiring.batches(config, appBlobs, registry, Time.SYSTEM);
            registries.add(batches);
        }
        MvsinkApp app = new MvsinkApp(config,
            new MvsinkApp.Dependencies(registry, appBlobs, batches, new ShardMetrics(config.shard()), Time.SYSTEM));
        apps.add(app);
        app.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
        return app;
    }

    /** Orphaned batches over every instance's batch coalescer: must stay 0. */
    long orphanedBatches() {
        return registries.stream().mapToLong(BatchCoalescer::orphanedBatches).sum();
    }

    CorrectionProducer producer() {
        return new CorrectionProducer(clientProps(), correctionsTopic(), rowSubject, registry);
    }

    ShardState state() {
        return ConsensusReader.read(clientProps(), name + "-consensus", correctionsTopic(), Duration.ofSeconds(30));
    }

    /** Waits until the shard is sealed at or above {@code upper}, then returns its state. */
    ShardState awaitUpper(long upper) {
        ShardState[] state = new ShardState[1];
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
            .until(() -> (state[0] = state()).upper() >= upper);
        return state[0];
    }

    /** Waits for the seal at {@code upper}; fails at once if {@code app} stopped (e.g. a record too large stops it). */
    void awaitUpperWhileRunning(MvsinkApp app, long upper, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertTrue(app.failure().isEmpty(), "the app failed: " + app.failure().map(SinkHarness::messages));
            return state().upper() >= upper;
        });
    }

    /**
     * Waits for the seal at {@code upper}, then checks that the shard holds exactly what was
     * produced: the snapshot equals the model read back from the corrections topic, every
     * append is an exact cover, and no batch was orphaned. Returns the model.
     */
    Map<String, Long> assertSealedExactly(long upper) {
        ShardState state = awaitUpper(upper);
        Map<String, Long> model = TopicModel.read(clientProps(), correctionsTopic(), rowSubject, registry, state.upper());
        assertEquals(model, snapshot(state));
        assertEveryAppendIsAnExactCover();
        assertEquals(0, orphanedBatches(), "orphaned batches");
        return model;
    }

    /**
     * Seqnos increase by one, each append continues at the previous upper, and each is an exact
     * cover; a compaction (upper unchanged) replaces an exact cover by one (ShardState checks it).
     */
    void assertEveryAppendIsAnExactCover() {
        List<StateDiff> diffs = ConsensusReader.diffs(clientProps(), name + "-consensus", correctionsTopic(),
            Duration.ofSeconds(30));
        assertFalse(diffs.isEmpty());
        long upper = 0;
        ShardState replayed = new ShardState(correctionsTopic());
        for (int i = 0; i < diffs.size(); i++) {
            StateDiff diff = diffs.get(i);
            assertEquals(i + 1, diff.getSeqno(), "seqnos increase by one per append");
            assertEquals(upper, diff.getLower(), "each append continues at the previous upper");
            assertTrue(diff.getUpper() > diff.getLower() || ShardState.isCompaction(diff), "uppers only advance");
            assertEquals(List.of(), CoverCheck.problems(diff), "append " + diff.getSeqno() + " is an exact cover");
            replayed.apply(diff);
            upper = diff.getUpper();
        }
    }

    /** Everything sealed, as the snapshot command reads it (into the subject's latest schema). */
    Map<String, Long> snapshot(ShardState state) {
        return new SnapshotReader(blobs, registry, rowSubject).read(state, state.upper() - 1);
    }

    /**
     * The records on the shard's dead-letter topic (read committed), once there are at least
     * {@code expected}, plus any that come within a second more.
     */
    List<ConsumerRecord<byte[], byte[]>> deadLetters(int expected) {
        Map<String, Object> props = new HashMap<>(clientProps());
        props.put("isolation.level", "read_committed");
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(name + "-dead-letter", 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                return all.size() >= expected;
            });
            // anything more than expected would show up here
            consumer.poll(Duration.ofSeconds(1)).forEach(all::add);
        }
        return all;
    }

    /**
     * Sends 100 small updates (times 2,000 on) and progress to 5,000, then waits for that seal while
     * {@code app} runs: what follows a record under test (e.g. a large one). Returns the updates'
     * workload, whose model is what they add to the shard.
     */
    Workload sealSmallUpdatesAfter(MvsinkApp app, CorrectionProducer producer, Duration atMost) {
        Workload workload = new Workload(3, 20, 0.2);
        for (int i = 0; i < 100; i++) {
            Workload.Correction c = workload.next();
            producer.update(c.key(), c.row(), 2_000 + i, c.diff());
        }
        producer.progress(5_000);
        producer.flush();
        awaitUpperWhileRunning(app, 5_000, atMost);
        return workload;
    }

    /** What a snapshot holds when exactly {@code workload}'s updates were sealed (rows with a nonzero count, as text). */
    static Map<String, Long> snapshotOf(Workload workload) {
        Map<String, Long> expected = new TreeMap<>();
        workload.model().forEach((row, count) -> {
            if (count != 0) {
                expected.put(GenericData.get().toString(row), count);
            }
        });
        return expected;
    }

    /** The value of header {@code name} of {@code r} as text, or null. */
    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The messages of {@code e} and of its causes, one per line (for asserting what a failure said). */
    static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            text.append(cause).append('\n');
        }
        return text.toString();
    }

    @Override
    public void close() {
        for (MvsinkApp app : apps) {
            app.close(Duration.ofSeconds(30));
        }
        registries.forEach(BatchCoalescer::close);
    }
}
