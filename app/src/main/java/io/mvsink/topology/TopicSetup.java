package io.mvsink.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics mvsink owns (reports, consensus, dead-letter) with the right settings
 * ({@link TopicSettings}: replication, {@code min.insync.replicas}, the consensus topic's
 * compaction) and validates existing ones: a consensus topic that is not compacted is refused;
 * what {@link ConsensusTopicCheck} finds about the consensus topic as it is (new or existing) is
 * logged once, one WARN line each. The corrections topic must exist: it is the producer's. Also
 * creates the stores' changelog topics ahead of Kafka Streams ({@link #createChangelogs}).
 */
public final class TopicSetup {
    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);
    private static final long TIMEOUT_S = 60;
    private static final int METADATA_ATTEMPTS = 10;
    private static final int MISSING_ATTEMPTS = 4;
    /** Bounds the changelogs' creation ahead, which only saves time: Kafka Streams creates what is missing. */
    private static final long CHANGELOGS_TIMEOUT_S = 10;
    private static final int KNOWN_ATTEMPTS = 100;
    private static final long KNOWN_PAUSE_MS = 20;

    private final Admin admin;
    private final TopicSettings settings;

    /**
     * What setting up the topics found: the corrections topic's partition count, the consensus
     * topic's {@code max.message.bytes} (the largest record an append may write), the
     * {@link ConsensusTopicCheck} warnings it logged and the reports topic's partition count.
     */
    public record Setup(int partitions, int consensusMaxMessageBytes, List<String> warnings, int reportsPartitions) {
    }

    /** Topics created with the broker's defaults of replication. */
    public TopicSetup(Admin admin) {
        this(admin, TopicSettings.BROKER_DEFAULTS);
    }

    public TopicSetup(Admin admin, TopicSettings settings) {
        this.admin = admin;
        this.settings = settings;
    }

    /** Ensures every topic of {@code topics}; returns the corrections topic's partition count. */
    public int ensure(SinkTopology.Topics topics) {
        return setUp(topics).partitions();
    }

    /** Ensures every topic of {@code topics} and checks the consensus topic; logs each warning once. */
    public Setup setUp(SinkTopology.Topics topics) {
        int partitions = describeJustCreated(topics.corrections())
            .orElseThrow(() -> new TopicException("corrections topic '" + topics.corrections()
                + "' does not exist: create it (partitioned by row key) or set corrections.topic"))
            .partitions().size();
        requireAnUpdateLog(topics.corrections());
        int reportsPartitions = ensureTopic(topics.reports(), settings.deletingTopicConfigs());
        ensureTopic(topics.deadLetter(), settings.deletingTopicConfigs());
        ensureTopic(topics.consensus(), settings.consensusTopicConfigs());
        Map<String, String> configs = configs(topics.consensus());
        String policy = configs.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (!TopicConfig.CLEANUP_POLICY_COMPACT.equals(policy)) {
            throw new TopicException("consensus topic '" + topics.consensus() + "' has cleanup.policy=" + policy
                + "; it must be exactly 'compact' (a deleting policy would lose appends): fix the topic or "
                + "point consensus.topic at another one");
        }
        int replicas = describeJustCreated(topics.consensus()).orElseThrow(() -> new TopicException(
                "consensus topic '" + topics.consensus() + "' vanished while mvsink set it up")).partitions().stream()
            .mapToInt(p -> p.replicas().size()).min().orElse(0);
        List<String> warnings = ConsensusTopicCheck.warnings(topics.consensus(), replicas, configs);
        warnings.forEach(LOG::warn);
        int maxMessageBytes = ConsensusTopicCheck.maxMessageBytes(configs);
        LOG.info("consensus topic {}: {} replica(s), min.insync.replicas={}, max.message.bytes={}, segment.ms={}, "
            + "max.compaction.lag.ms={}", topics.consensus(), replicas,
            configs.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), maxMessageBytes,
            configs.get(TopicConfig.SEGMENT_MS_CONFIG), configs.get(TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG));
        return new Setup(partitions, maxMessageBytes, warnings, reportsPartitions);
    }

    /**
     * Refuses a corrections topic that cannot carry the input as produced: one whose broker stamps the
     * records ({@code message.timestamp.type=LogAppendTime}, the topic's own or the broker's
     * {@code log.message.timestamp.type}), as a record's timestamp is its update's time; and a compacted
     * one ({@code cleanup.policy} holding {@code compact}), whose cleaner keeps only the last record per
     * key (an insert and its retraction come down to the retraction, progress records are tombstones),
     * so that a lagging or replaying task would read other input than was produced. A topic whose
     * configs cannot be read passes with a warning.
     */
    private void requireAnUpdateLog(String corrections) {
        Map<String, String> configs;
        try {
            configs = configs(corrections);
        } catch (TopicException e) {
            // the corrections topic is the user's: reading its configs may not be granted to the app
            LOG.warn("cannot read the configuration of corrections topic '{}' ({}): its message.timestamp.type and"
                + " cleanup.policy are not checked", corrections, e.getMessage());
            return;
        }
        String type = Objects.toString(configs.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG), "").trim();
        if ("LogAppendTime".equalsIgnoreCase(type)) {
            throw new TopicException("corrections topic '" + corrections + "' has message.timestamp.type=LogAppendTime:"
                + " the broker replaces each record's timestamp, which is the update's time, with the time it appended"
                + " the record; set message.timestamp.type=CreateTime on the topic (a broker's"
                + " log.message.timestamp.type=LogAppendTime is overridden by the topic's own setting)");
        }
        String cleanup = Objects.toString(configs.get(TopicConfig.CLEANUP_POLICY_CONFIG), "").replace(" ", "");
        if (Arrays.asList(cleanup.toLowerCase(Locale.ROOT).split(",")).contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
            throw new TopicException("corrections topic '" + corrections + "' has cleanup.policy=" + cleanup
                + ": compaction keeps only the last record per key (an insert and its retraction come down to the"
                + " retraction, progress records are deleted as tombstones), so the sink would read other updates"
                + " than were produced; set cleanup.policy=delete on the topic (with retention.ms=-1 or a size bound,"
                + " README, input contract)");
        }
    }

    /** Creates the topic with one partition unless it exists; returns its partition count. */
    private int ensureTopic(String name, Map<String, String> configs) {
        Optional<TopicDescription> existing = describe(name);
        if (existing.isPresent()) {
            return existing.get().partitions().size();
        }
        try {
            NewTopic topic = new NewTopic(name, Optional.of(1), settings.replication()).configs(configs);
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
            LOG.info("created topic {} with replication factor {} and {}", name,
                settings.replication().map(String::valueOf).orElse("(the broker's default)"), new TreeMap<>(configs));
            return 1;
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new TopicException("cannot create topic '" + name + "': " + e.getCause().getMessage(), e.getCause());
            }
            // created by another instance meanwhile
            return describeJustCreated(name).orElseThrow(() -> new TopicException("topic '" + name
                + "' exists and cannot be described")).partitions().size();
        } catch (Exception e) {
            throw new TopicException("cannot create topic '" + name + "': " + e, e);
        }
    }

    /**
     * Creates the changelog topics Kafka Streams would create in the group's first rebalance
     * ({@link SinkTopology#changelogs}), in one request, so that its first assignment finds them
     * instead of creating them and waiting for them to be known (about 0.35 s of a first launch,
     * docs/ARCHITECTURE.md "Start-up"). Topics that exist are left as they are (Kafka Streams checks
     * their partition counts); any other failure is logged and left to Kafka Streams, which creates
     * what is missing, or reports it, as it always has.
     *
     * @param replication the replication factor Kafka Streams would use (empty: the broker's default)
     * @param configs the topic configs Kafka Streams would set ({@code cleanup.policy=compact} and the
     *                {@code topic.} overrides)
     * @return the topics this call created
     */
    public List<String> createChangelogs(Map<String, Integer> changelogs, Optional<Short> replication,
                                         Map<String, String> configs) {
        List<NewTopic> topics = changelogs.entrySet().stream()
            .map(e -> new NewTopic(e.getKey(), Optional.of(e.getValue()), replication).configs(configs)).toList();
        Map<String, KafkaFuture<Void>> results = admin.createTopics(topics).values();
        List<String> created = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHANGELOGS_TIMEOUT_S);
        for (Map.Entry<String, KafkaFuture<Void>> result : new TreeMap<>(results).entrySet()) {
            try {
                result.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                created.add(result.getKey());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    LOG.info("changelog topic {} not created ahead ({}); Kafka Streams creates it", result.getKey(),
                        e.getCause().toString());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopicException("interrupted while creating the changelog topics", e);
            } catch (TimeoutException e) {
                LOG.info("changelog topic {} not created ahead within {} s; Kafka Streams creates it", result.getKey(),
                    CHANGELOGS_TIMEOUT_S);
            }
        }
        awaitKnown(created);
        return created;
    }

    /**
     * The {@code max.message.bytes} in effect (the topic's own, or the broker's default) of those of
     * {@code names} that exist, in one request; a topic that does not exist is left out (it will be
     * created with the configs the caller gives it). Empty if the configs cannot be read (e.g. an ACL
     * refuses it): the caller then knows no bound beyond its own.
     */
    public Map<String, Integer> maxMessageBytes(Collection<String> names) {
        Map<ConfigResource, KafkaFuture<Config>> futures = admin.describeConfigs(names.stream()
            .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList()).values();
        Map<String, Integer> bytes = new TreeMap<>();
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> future : futures.entrySet()) {
            try {
                bytes.put(future.getKey().name(), ConsensusTopicCheck.maxMessageBytes(
                    values(future.getValue().get(TIMEOUT_S, TimeUnit.SECONDS))));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    LOG.warn("cannot read max.message.bytes of topic {} ({}): records are bounded by the producer's "
                        + "max.request.size alone", future.getKey().name(), e.getCause().toString());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopicException("interrupted while reading the topics' max.message.bytes", e);
            } catch (TimeoutException e) {
                LOG.warn("cannot read max.message.bytes of topic {} within {} s: records are bounded by the "
                    + "producer's max.request.size alone", future.getKey().name(), TIMEOUT_S);
            }
        }
        return bytes;
    }

    /**
     * Waits, up to about two seconds, until the broker that answers knows the topics just created:
     * Kafka Streams' first assignment describes them, and one it cannot see yet it tries to create
     * again and waits its retry backoff for (100 ms a round). Past that it goes on; Kafka Streams
     * waits for them as before.
     */
    private void awaitKnown(List<String> created) {
        for (int attempt = 1; !created.isEmpty() && attempt <= KNOWN_ATTEMPTS; attempt++) {
            try {
                admin.describeTopics(created).allTopicNames().get(CHANGELOGS_TIMEOUT_S, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    LOG.debug("changelog topics {} not described: {}", created, e.getCause().toString());
                    return;
                }
            } catch (TimeoutException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopicException("interrupted while waiting for the changelog topics", e);
            }
            try {
                Thread.sleep(KNOWN_PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopicException("interrupted while waiting for the changelog topics", e);
            }
        }
    }

    /**
     * The topic, asked a few times over about a second before it counts as missing: one created a
     * moment ago (a user's script, a test) may not be known to the broker that answers yet.
     */
    private Optional<TopicDescription> describeJustCreated(String name) {
        for (int attempt = 1; ; attempt++) {
            Optional<TopicDescription> found = describe(name);
            if (found.isPresent() || attempt == MISSING_ATTEMPTS) {
                return found;
            }
            pause(attempt);
        }
    }

    private Optional<TopicDescription> describe(String name) {
        try {
            Collection<TopicDescription> found = admin.describeTopics(List.of(name)).allTopicNames()
                .get(TIMEOUT_S, TimeUnit.SECONDS).values();
            return found.stream().findFirst();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw new TopicException("cannot describe topic '" + name + "': " + e.getCause().getMessage(), e.getCause());
        } catch (Exception e) {
            throw new TopicException("cannot describe topic '" + name + "': " + e, e);
        }
    }

    /** The topic's configs in effect; a topic created a moment ago may not be known to every broker yet. */
    private Map<String, String> configs(String name) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
        for (int attempt = 1; ; attempt++) {
            try {
                Config config = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS)
                    .get(resource);
                return values(config);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt == METADATA_ATTEMPTS) {
                    throw new TopicException("cannot read the configuration of topic '" + name + "': "
                        + e.getCause().getMessage(), e.getCause());
                }
                pause(attempt);
            } catch (Exception e) {
                throw new TopicException("cannot read the configuration of topic '" + name + "': " + e, e);
            }
        }
    }

    private static Map<String, String> values(Config config) {
        Map<String, String> values = new HashMap<>();
        config.entries().forEach(entry -> values.put(entry.name(), entry.value()));
        return values;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(2_000, 100L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicException("interrupted while waiting for topic metadata", e);
        }
    }
}
