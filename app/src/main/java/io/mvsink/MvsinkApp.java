package io.mvsink;

import io.mvsink.protocol.RecordBound;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.batch.ShardSink;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.compact.BatchMerge;
import io.mvsink.compact.BatchMerger;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardPlacement;
import io.mvsink.consensus.ShardState;
import io.mvsink.gc.GcService;
import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.metrics.ShardJmx;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.protocol.MintingHold;
import io.mvsink.protocol.RangeMinter;
import io.mvsink.registry.RegistryReadiness;
import io.mvsink.registry.RegistryUnavailableException;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.topology.ConsensusTopicCheck;
import io.mvsink.topology.AdminPartitionCountProbe;
import io.mvsink.topology.DeadLetterReason;
import io.mvsink.topology.RocksMemory;
import io.mvsink.topology.SinkContext;
import io.mvsink.topology.SinkTopology;
import io.mvsink.topology.TopicSettings;
import io.mvsink.topology.TopicSetup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mvsink application: one shard's Kafka Streams app with its topics, builder and metrics.
 * Lifecycle: {@link #start()} once, then {@link #close(Duration)}.
 */
public final class MvsinkApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MvsinkApp.class);
    private static final Duration GC_STOP = Duration.ofSeconds(10);
    private static final Duration CONSENSUS_READ = Duration.ofSeconds(60);
    private static final Duration ADMIN_CLOSE = Duration.ofSeconds(5);
    /** Bounds the wait for the changelog topics created ahead (their creation is bounded at 10 s, the wait until the broker knows them at about 2 s). */
    private static final Duration CHANGELOGS_WAIT = Duration.ofSeconds(15);
    /** Bounds the appender's check of the corrections topic's partition count before a seal (on its stream thread). */
    private static final Duration PARTITION_PROBE_TIMEOUT = Duration.ofSeconds(3);
    /**
     * The stream threads' main consumer fetches at most this many bytes of a partition at a time
     * (Kafka's default is 1 MiB). A consumer hands out one partition's fetched records before the
     * next partition's, so the appender's task, where it shares a stream thread with corrections tasks,
     * sees a report only after the thread has processed the fetch of corrections ahead of it: behind
     * a backlog of small records, 1 MiB is 10,000+ updates and held every report (and so every seal)
     * back by seconds, the first seal of a catch-up by the whole first fetch of every partition
     * (docs/BENCH.md, "Launch to first append"). The restore consumer keeps the default.
     */
    static final int MAIN_CONSUMER_FETCH_BYTES = 64 * 1024;
    /**
     * The restore consumer's {@code fetch.max.wait.ms} (Kafka's default is 500 ms). At a start the
     * state updater adds a task's changelogs to a restore consumer whose fetch for the tasks before
     * it is still held by the broker; an empty changelog (the appender's, on a fresh or quiet
     * shard) is read only when that fetch returns, and the app reaches RUNNING, and mints its first
     * range, only after the appender's task is restored: about half a second of every launch
     * (docs/BENCH.md, "Launch to first append"). Unless a {@code streams.} option sets it.
     */
    static final int RESTORE_CONSUMER_FETCH_WAIT_MS = 100;
    /**
     * Stream threads started beyond {@code num.stream.threads}: one, for the appender's task. Kafka
     * Streams spreads tasks evenly over the threads, so with at least as many threads as the
     * instance's corrections partitions the appender's task has a thread of its own. A stream thread
     * polls only after it processed what it fetched; sharing one with a corrections task behind a
     * backlog, the appender saw each committed report one or two polls (0.3-1 s on 2 cores) late.
     */
    static final int APPENDER_THREADS = 1;
    /**
     * Kafka Streams' commit interval unless {@code streams.commit.interval.ms} sets one (exactly-once's
     * default is 100 ms): every commit flushes each task's stores and ends each thread's transaction,
     * while what must become visible soon (a report, a seal) asks for its own commit.
     */
    static final long COMMIT_INTERVAL_MS = 1000;

    /**
     * The app's own lifecycle: CREATED → STARTED (its stream threads exist; they run or failed) →
     * CLOSED, or CREATED → CLOSED. Only {@link #start} and {@link #close} move it, each once.
     */
    enum Lifecycle {
        CREATED, STARTED, CLOSED;

        boolean canBecome(Lifecycle next) {
            return switch (this) {
                case CREATED -> next == STARTED || next == CLOSED;
                case STARTED -> next == CLOSED;
                case CLOSED -> false;
            };
        }
    }

    private final MvsinkConfig config;
    private final Dependencies deps;
    private final SinkTopology.Topics topics;
    private volatile Lifecycle lifecycle = Lifecycle.CREATED;
    private GcService gc;
    private KafkaStreams streams;
    /** The bound of this app's RocksDB stores (null: unbounded); closed after {@link #streams}. */
    private RocksMemory rocksMemory;
    private volatile ShardMetricSet shardMetricSet;
    private ExecutorService compactor;
    private Admin admin;
    private DepartedTransactions departed;
    private volatile Throwable failure;

    /**
     * The collaborators of the app, injected (tests hand in their own). The batch coalescer is
     * JVM-wide: several apps (shards) of one process share it; {@link #close()} closes what
     * the dependencies own, and is the process owner's call, not an app's.
     */
    public record Dependencies(SchemaRegistry registry, BlobStore blobs, BatchCoalescer batches,
                               ShardMetrics metrics, Time time) implements AutoCloseable {
        @Override
        public void close() {
            batches.close();
            blobs.close();
        }
    }

    public MvsinkApp(MvsinkConfig config, Dependencies deps) {
        this.config = config;
        this.deps = deps;
        this.topics = new SinkTopology.Topics(config.correctionsTopic(), config.reportsTopic(),
            config.consensusTopic(), config.deadLetterTopic());
    }

    /** Creates or validates the topics, builds the topology and starts the stream threads. */
    public synchronized void start() {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(config.shard())) {
            startStreams();
        }
    }

    private void startStreams() {
        if (lifecycle != Lifecycle.CREATED) {
            throw new IllegalStateException("mvsink app for shard " + config.shard() + " already "
                + (lifecycle == Lifecycle.STARTED ? "started" : "closed"));
        }
        // the blob store may still be starting (Wiring.dependencies), and the Kafka side starts on a thread
        // of its own: the registry is checked meanwhile. Errors keep the order blob store, registry, Kafka.
        BlobStore blobs = deps.blobs();
        CompletableFuture<KafkaSide> starting = startKafkaSide();
        KafkaSide side;
        try {
            RegistryReadiness.await(deps.registry(), config.rowSubject(),
                config.getString(MvsinkConfig.REGISTRY_URL), config.getLong(MvsinkConfig.REGISTRY_STARTUP_TIMEOUT_MS),
                deps.time(), blobs::throwIfStartFailed);
            LaunchLog.step("registry ready");
            side = joined(starting);
        } catch (RuntimeException e) {
            starting.thenAccept(started -> started.admin().close(ADMIN_CLOSE));
            throw blobFailureFirst(blobs, e);
        }
        admin = side.admin();
        int partitions = side.partitions();
        BlobOwner owner = side.owner();
        RecordBound bound = side.bound();
        try {
            blobs.awaitStarted();
            LaunchLog.step("blob store started");
            requireShardPlacement(side.state(), partitions);
        } catch (RuntimeException e) {
            admin.close(ADMIN_CLOSE);
            admin = null;
            throw blobFailureFirst(blobs, e);
        }
        deps.batches().addShard(new ShardSink(config.shard(), config.blobPrefix(), owner.value(),
            deps.metrics(), inlineMaxBytes(config.inlineMaxBytes(), partitions, bound)), new RangeMinter(config.batchIntervalMs(), config.getLong(MvsinkConfig.RANGE_TARGET_BYTES)));
        SinkContext sink = new SinkContext(Wiring.sinkSettings(config, partitions).withRecordBytes(side.recordBytes()),
            deps.time(), deps.metrics(),
            deps.batches(), deps.registry(), upkeep(owner, bound), new AdminPartitionCountProbe(admin, topics.corrections(), PARTITION_PROBE_TIMEOUT),
            deps.blobs().location());
        Topology topology = SinkTopology.build(topics, sink);
        Properties props = streamsProps();
        long rocksBytes = config.getLong(MvsinkConfig.ROCKSDB_MEMORY_BYTES);
        if (rocksBytes > 0) {
            rocksMemory = RocksMemory.bounded(rocksBytes);
            rocksMemory.configure(props);
        }
        streams = new KafkaStreams(topology, props);
        become(Lifecycle.STARTED);
        String shard = config.shard();
        BatchCoalescer batches = deps.batches();
        MintingHold hold = MintingHold.start(batches, shard);
        streams.setStateListener((now, before) -> {
            LaunchLog.step("streams {} -> {}", before, now);
            hold.stateChanged(now == KafkaStreams.State.RUNNING);
        });
        streams.setUncaughtExceptionHandler(e -> {
            StreamThreadExceptionResponse response = onStreamThreadFailure(config.shard(), e);
            if (response != StreamThreadExceptionResponse.REPLACE_THREAD) {
                failure = e;
            }
            return response;
        });
        shardMetricSet = ShardJmx.register(deps.metrics(), new BuilderGauges(() -> batches.queuedBytes(shard),
            () -> batches.liveBatches(shard), batches::queuedBytes, batches::liveBatches), DeadLetterReason.ALL,
            deps.time());
        awaitChangelogs(side.changelogs());
        LaunchLog.step("starting streams");
        streams.start();
        departed = DepartedTransactions.start(admin, config.applicationId());
        gc = GcService.start(config, owner, deps.blobs(), deps.metrics(), deps.time());
        LOG.info("started over {} partitions of {}, blob owner {}", partitions, topics.corrections(), owner.value());
    }

    /**
     * What the start needs from Kafka: the admin client (the app keeps it), the corrections topic's
     * partitions, the consensus records' bound, the shard's state as the consensus topic holds it,
     * and the blob owner (from the cluster's id), and the largest record the shard's producers may send
     * to its own topics ({@link #recordBytes(TopicSetup, TopicSetup.Setup)}).
     */
    private record KafkaSide(Admin admin, int partitions, RecordBound bound, ShardState state, BlobOwner owner,
                             CompletableFuture<List<String>> changelogs, int recordBytes) {
    }

    /** Prepares the Kafka side on a daemon thread named {@code mvsink-kafka-start}, in the shard's log context. */
    private CompletableFuture<KafkaSide> startKafkaSide() {
        CompletableFuture<KafkaSide> side = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try (ShardLogContext.Scope scope = ShardLogContext.enter(config.shard())) {
                side.complete(kafkaSide());
            } catch (Throwable e) {
                side.completeExceptionally(e);
            }
        }, "mvsink-kafka-start");
        thread.setDaemon(true);
        thread.start();
        return side;
    }

    /** Creates or checks the topics, reads the consensus topic and the blob owner; closes its admin client if it fails. */
    private KafkaSide kafkaSide() {
        Admin kafkaAdmin = Admin.create(clientProps());
        try {
            TopicSetup topicSetup = new TopicSetup(kafkaAdmin, topicSettings());
            TopicSetup.Setup setup = topicSetup.setUp(topics);
            RecordBound bound = recordBound(setup.consensusMaxMessageBytes());
            LaunchLog.step("topics ready: {} partitions, records up to {} bytes", setup.partitions(), bound.bytes());
            CompletableFuture<List<String>> changelogs = CompletableFuture.supplyAsync(
                () -> createChangelogs(topicSetup, setup), task -> {
                    Thread thread = new Thread(ShardLogContext.wrap(config.shard(), task), "mvsink-changelogs");
                    thread.setDaemon(true);
                    thread.start();
                });
            // beside the changelogs' creation: a changelog created ahead takes what the producer sends, so
            // whether it is read before or after it exists, the bound is the same
            int recordBytes = recordBytes(topicSetup, setup);
            ShardState state = ConsensusReader.read(clientProps(), config.consensusTopic(), config.shard(), CONSENSUS_READ);
            LaunchLog.step("consensus topic read");
            BlobOwner owner = Wiring.blobOwner(config, kafkaAdmin);
            LaunchLog.step("blob owner {}", owner.value());
            return new KafkaSide(kafkaAdmin, setup.partitions(), bound, state, owner, changelogs, recordBytes);
        } catch (RuntimeException e) {
            kafkaAdmin.close(ADMIN_CLOSE);
            throw e;
        }
    }

    /**
     * The changelog topics of the shard's stores, created as Kafka Streams would create them in its
     * first rebalance (same partitions, replication and {@code topic.} configs), so that the first
     * assignment of a new application id finds them ready (docs/ARCHITECTURE.md, "Start-up").
     */
    private List<String> createChangelogs(TopicSetup topicSetup, TopicSetup.Setup setup) {
        StreamsConfig streamsConfig = new StreamsConfig(streamsProps());
        int replication = streamsConfig.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG);
        Map<String, String> configs = new TreeMap<>();
        streamsConfig.originalsWithPrefix(StreamsConfig.TOPIC_PREFIX).forEach((k, v) -> configs.put(k, String.valueOf(v)));
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        configs.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
        return topicSetup.createChangelogs(SinkTopology.changelogs(config.applicationId(), setup.partitions(),
            setup.reportsPartitions()), replication > 0 ? Optional.of((short) replication) : Optional.empty(), configs);
    }

    /**
     * Waits (a bounded while) for the changelog topics created ahead, which have had the rest of the
     * start to appear; whatever they came to, Kafka Streams creates what is missing.
     */
    private static void awaitChangelogs(CompletableFuture<List<String>> changelogs) {
        try {
            LaunchLog.step("changelogs created ahead: {}", changelogs.get(CHANGELOGS_WAIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the changelog topics were created", e);
        } catch (ExecutionException | TimeoutException e) {
            LOG.info("the changelog topics were not created ahead ({}); Kafka Streams creates them", e.toString());
        }
    }

    /** The Kafka side once prepared, or what stopped it, as thrown. */
    private static KafkaSide joined(CompletableFuture<KafkaSide> side) {
        try {
            return side.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("the Kafka side of the start failed: " + cause, cause);
        }
    }

    /**
     * Refuses to start a shard whose state the consensus topic holds with another partition count or
     * another location of its parts (before any stream thread could write a part or seal anything).
     */
    private void requireShardPlacement(ShardState state, int partitions) {
        ShardPlacement.require(state, topics.corrections(), partitions, deps.blobs().location(),
            MvsinkConfig.BLOB_CONTAINER);
    }

    /**
     * What to throw for {@code failure} of a start-up step: the blob store's own failure to start if it
     * has one (waiting for its build, which its retries bound), with {@code failure} suppressed, since
     * a store that cannot start is what the operator must fix first; otherwise {@code failure}.
     */
    private static RuntimeException blobFailureFirst(BlobStore blobs, RuntimeException failure) {
        try {
            blobs.awaitStarted();
        } catch (RuntimeException blobFailure) {
            if (blobFailure != failure) {
                blobFailure.addSuppressed(failure);
            }
            return blobFailure;
        }
        return failure;
    }

    /**
     * The largest consensus record this app writes: the consensus topic's {@code max.message.bytes}
     * and the appender's producer's {@code max.request.size} (Kafka Streams' producer settings, with
     * this app's overrides), less headroom ({@link ConsensusTopicCheck#recordBound}).
     */
    RecordBound recordBound(int topicMaxMessageBytes) {
        long requestSize = producerMaxRequestSize(streamsProps());
        RecordBound bound = ConsensusTopicCheck.recordBound(topicMaxMessageBytes, requestSize);
        LOG.info("consensus records bound at {} bytes ({} max.message.bytes={}, producer max.request.size={})",
            bound.bytes(), topics.consensus(), topicMaxMessageBytes, requestSize);
        return bound;
    }

    /**
     * The largest record the shard's producers may send to its own topics: the producer's
     * {@code max.request.size} (with this app's overrides), the {@code max.message.bytes} its changelogs
     * are created with ({@code topic.max.message.bytes}, set by {@link #streamsProps} above the broker's
     * default) and that in effect on the changelog and dead-letter topics that exist, whichever is
     * least, less headroom. A larger row is dead-lettered as oversized, a larger dead letter goes
     * without the bad record's value: written, the broker would refuse it and the task stop at it at
     * every restart. A topic that bounds records below the producer's request size (made before the
     * option was raised, or by an operator) is named in a warning.
     */
    private int recordBytes(TopicSetup topicSetup, TopicSetup.Setup setup) {
        Properties props = streamsProps();
        long requestSize = producerMaxRequestSize(props);
        String created = props.getProperty(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG));
        long bound = created == null ? requestSize : Math.min(requestSize, Long.parseLong(created.trim()));
        List<String> own = new ArrayList<>(SinkTopology.changelogs(config.applicationId(), setup.partitions(),
            setup.reportsPartitions()).keySet());
        own.add(topics.deadLetter());
        for (Map.Entry<String, Integer> topic : topicSetup.maxMessageBytes(own).entrySet()) {
            if (topic.getValue() < requestSize) {
                LOG.warn("topic {} takes records up to max.message.bytes={}, below the producer's max.request.size={}:"
                    + " rows and dead letters are bounded by it (larger rows are dead-lettered as oversized-row);"
                    + " raise max.message.bytes on the topic to take them", topic.getKey(), topic.getValue(), requestSize);
            }
            bound = Math.min(bound, topic.getValue());
        }
        long bytes = bound - RecordBound.HEADROOM;
        return (int) Math.max(RecordBound.HEADROOM, Math.min(Integer.MAX_VALUE, bytes));
    }

    static long producerMaxRequestSize(Properties streamsProps) {
        Object size = new StreamsConfig(streamsProps).getProducerConfigs("mvsink").get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        return size == null ? RecordBound.PRODUCER_DEFAULT_MAX_REQUEST_SIZE : Long.parseLong(size.toString().trim());
    }

    /**
     * The inline limit per batch, capped so that one inline batch per partition stays within half the
     * record bound ({@link RecordBound#inlinePerBatch}). 0 (inline off) stays 0.
     */
    static long inlineMaxBytes(long configured, int partitions, RecordBound bound) {
        long capped = bound.inlinePerBatch(configured, partitions);
        if (capped < configured) {
            LOG.info("{}={} capped at {} bytes per batch for {} partitions (consensus records bound at {} bytes)",
                MvsinkConfig.INLINE_MAX_BYTES, configured, capped, partitions, bound.bytes());
        }
        return capped;
    }

    /** The appender's upkeep: merges on this app's own compactor thread, rollups, since, the GC grace. */
    private SinkContext.Upkeep upkeep(BlobOwner owner, RecordBound bound) {
        BatchMerge merge = null;
        if (config.getBoolean(MvsinkConfig.COMPACTION_ENABLED)) {
            compactor = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(ShardLogContext.wrap(config.shard(), task),
                    "mvsink-compactor-" + config.shard());
                thread.setDaemon(true);
                return thread;
            });
            merge = new BatchMerger(deps.blobs(), deps.registry(), config.rowSubject(),
                Wiring.encoder(config), config.blobPrefix(), owner.value(), deps.time());
        }
        return SinkContext.Upkeep.DEFAULT.withMerge(merge, compactor == null ? Runnable::run : compactor)
            .withMaxBatchBytes(config.getLong(MvsinkConfig.COMPACTION_MAX_BATCH_BYTES))
            .withSinceLagMs(config.getLong(MvsinkConfig.COMPACTION_SINCE_LAG_MS))
            .withRollupAppends(config.getInt(MvsinkConfig.ROLLUP_APPENDS))
            .withGraceMs(config.getLong(MvsinkConfig.GC_GRACE_MS))
            .withInlineMergeBytes(config.getInt(MvsinkConfig.INLINE_MERGE_BYTES))
            .withRecordBound(bound);
    }

    /** The shard's metrics as JMX shows them (Kafka's metrics, group {@value ShardMetricSet#GROUP}); empty before {@link #start}. */
    public Map<MetricName, ? extends Metric> shardMetrics() {
        ShardMetricSet set = shardMetricSet;
        return set == null ? Map.of() : set.metrics();
    }

    /** Kafka Streams' and its clients' metrics; empty before {@link #start}. */
    public Map<MetricName, ? extends Metric> kafkaMetrics() {
        KafkaStreams running = streams;
        return running == null ? Map.of() : running.metrics();
    }

    public KafkaStreams.State state() {
        return lifecycle == Lifecycle.STARTED ? streams.state() : closedOrCreated();
    }

    /** An app that was never started is CREATED; a closed one says what its stream threads came to. */
    private KafkaStreams.State closedOrCreated() {
        KafkaStreams closed = lifecycle == Lifecycle.CLOSED ? streams : null;
        return closed == null ? KafkaStreams.State.CREATED : closed.state();
    }

    /** The failure that shut the app down, if one did. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    public ShardMetrics metrics() {
        return deps.metrics();
    }

    public SinkTopology.Topics topics() {
        return topics;
    }

    /** Kafka client settings (bootstrap servers and any streams.* common client overrides). */
    public Map<String, Object> clientProps() {
        return config.kafkaClientProps();
    }

    /** How mvsink creates its topics: {@link MvsinkConfig#TOPICS_REPLICATION_FACTOR} and {@link MvsinkConfig#TOPICS_MIN_INSYNC_REPLICAS}. */
    TopicSettings topicSettings() {
        return new TopicSettings(config.getInt(MvsinkConfig.TOPICS_REPLICATION_FACTOR),
            config.getInt(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS),
            createdMaxMessageBytes(producerMaxRequestSize(streamsProps())));
    }

    /** The {@code max.message.bytes} of a topic mvsink creates: the producer's request size above the broker's default, else none (-1). */
    private static int createdMaxMessageBytes(long requestSize) {
        return requestSize > RecordBound.BROKER_DEFAULT_MAX_MESSAGE_BYTES ? (int) Math.min(Integer.MAX_VALUE, requestSize) : -1;
    }

    /**
     * Kafka Streams' properties: mvsink's fixed settings, the {@code streams.} options, and, unless
     * those set them, the replication of Kafka Streams' internal topics as mvsink's own topics have it.
     */
    Properties streamsProps() {
        Properties props = new Properties();
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put("processing.exception.handler.global.enabled", true);
        Map<String, Object> overrides = config.streamsOverrides();
        if (!overrides.containsKey(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)
            && !overrides.containsKey(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG))) {
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
                MAIN_CONSUMER_FETCH_BYTES);
        }
        if (!overrides.containsKey(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)
            && !overrides.containsKey(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))) {
            props.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
                RESTORE_CONSUMER_FETCH_WAIT_MS);
        }
        // commits are asked for when a report or a seal must become visible (CorrectionProcessor,
        // AppenderProcessor); the interval only bounds what a crash replays (docs/ARCHITECTURE.md, "Cost per update")
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
        props.putAll(overrides);
        TopicSettings topicSettings = new TopicSettings(config.getInt(MvsinkConfig.TOPICS_REPLICATION_FACTOR),
            config.getInt(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS));
        topicSettings.replication().ifPresent(r -> props.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) r));
        if (topicSettings.minInsyncReplicas() > 0) {
            props.putIfAbsent(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                Integer.toString(topicSettings.minInsyncReplicas()));
        }
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.getString(MvsinkConfig.BOOTSTRAP_SERVERS));
        // the changelogs take what the producer sends (a buffered row, a block): one the broker refused
        // would stop its task at every restart; a topic that exists keeps its own (recordBytes bounds by it).
        // Set only above the broker's default, so that a default app's topics carry no override a
        // cluster's topic policy could refuse
        int created = createdMaxMessageBytes(producerMaxRequestSize(props));
        if (created > 0) {
            props.putIfAbsent(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), Integer.toString(created));
        }
        // one thread more for the appender's task: with as many threads as partitions it has one of its own,
        // and polls for reports without processing a corrections task's backlog first (docs/ARCHITECTURE.md, "Start-up")
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.getInt(MvsinkConfig.NUM_STREAM_THREADS) + APPENDER_THREADS);
        String stateDir = config.getString(MvsinkConfig.STATE_DIR);
        if (!stateDir.isEmpty()) {
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        }
        return props;
    }

    /**
     * Stops the blob GC (waiting at most 10 s for a run to stop), then the stream threads (committing
     * what they did), bounded by {@code timeout}, and unregisters the shard's MBean (so a new app of
     * the shard in this JVM can register it).
     */
    public synchronized void close(Duration timeout) {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(config.shard())) {
            closeAll(timeout);
        }
    }

    private void become(Lifecycle next) {
        if (!lifecycle.canBecome(next)) {
            throw new IllegalStateException("mvsink app for shard " + config.shard() + " cannot go from " + lifecycle
                + " to " + next);
        }
        LOG.debug("app {} -> {}", lifecycle, next);
        lifecycle = next;
    }

    private void closeAll(Duration timeout) {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        boolean started = lifecycle == Lifecycle.STARTED;
        become(Lifecycle.CLOSED);
        if (gc != null) {
            gc.close(timeout.compareTo(GC_STOP) < 0 ? timeout : GC_STOP);
        }
        if (departed != null) {
            departed.close();
        }
        if (started && !streams.close(closeOptions(timeout))) {
            LOG.warn("stream threads did not stop within {}", timeout);
        }
        if (rocksMemory != null) {
            // after the stores: each RocksDB holds its own reference, so even a store a stuck thread
            // has not closed yet keeps the cache it uses
            rocksMemory.close();
            rocksMemory = null;
        }
        ShardMetricSet set = shardMetricSet;
        if (set != null) {
            shardMetricSet = null;
            set.close();
        }
        if (started) {
            deps.batches().removeShard(config.shard());
        }
        if (admin != null) {
            admin.close(ADMIN_CLOSE);
        }
        if (compactor != null) {
            // a merge still running writes parts nothing will reference: garbage for the blob GC
            compactor.shutdownNow();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /**
     * A dynamic member leaves the group as it stops, so its tasks move at once; Kafka Streams' default
     * keeps it in the group until its session times out (ProcessKillIT: a SIGTERM'd instance's tasks
     * waited the 6 s session timeout). A static member ({@code group.instance.id}) keeps the default.
     */
    private CloseOptions closeOptions(Duration timeout) {
        boolean staticMember = config.streamsOverrides().keySet().stream().anyMatch(k -> k.endsWith("group.instance.id"));
        return CloseOptions.timeout(timeout).withGroupMembershipOperation(staticMember
            ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP : CloseOptions.GroupMembershipOperation.LEAVE_GROUP);
    }

    /**
     * What a failed stream thread means: a schema registry that cannot be reached anywhere in the
     * cause chain (Kafka Streams wraps it, and it wraps the I/O error), or a transaction that was
     * aborted or fenced under the thread, is transient, so the thread is replaced and its tasks'
     * records processed again from what committed; anything else shuts the app down.
     */
    static StreamThreadExceptionResponse onStreamThreadFailure(String shard, Throwable e) {
        try (ShardLogContext.Scope scope = ShardLogContext.enter(shard)) {
            return responseTo(e);
        }
    }

    private static StreamThreadExceptionResponse responseTo(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RegistryUnavailableException) {
                LOG.warn("schema registry unavailable, replacing the stream thread: {}", cause.getMessage());
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            }
            if (cause instanceof InvalidTxnStateException || cause instanceof ProducerFencedException
                || cause instanceof InvalidProducerEpochException) {
                // the thread's transaction was aborted or fenced (e.g. during a rebalance after an instance
                // died): nothing of it committed, and a new thread starts its tasks from what did
                LOG.warn("the stream thread's transaction failed, replacing the thread: {}", cause.toString());
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            }
        }
        LOG.error("stream thread failed; shutting the app down", e);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
}
