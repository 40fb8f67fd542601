package io.mvsink.topology;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
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
 * logged once, one WARN line each. The corrections topic must exist: it is the producer's.
 */
public final class TopicSetup {
    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);
    private static final long TIMEOUT_S = 60;
    private static final int METADATA_ATTEMPTS = 10;
    private static final int MISSING_ATTEMPTS = 4;

    private final Admin admin;
    private final TopicSettings settings;

    /**
     * What setting up the topics found: the corrections topic's partition count, the consensus
     * topic's {@code max.message.bytes} (the largest record an append may write) and the
     * {@link ConsensusTopicCheck} warnings it logged.
     */
    public record Setup(int partitions, int consensusMaxMessageBytes, List<String> warnings) {
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
        ensureTopic(topics.reports(), settings.deletingTopicConfigs());
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
        return new Setup(partitions, maxMessageBytes, warnings);
    }

    private void ensureTopic(String name, Map<String, String> configs) {
        if (describe(name).isPresent()) {
            return;
        }
        try {
            NewTopic topic = new NewTopic(name, Optional.of(1), settings.replication()).configs(configs);
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
            LOG.info("created topic {} with replication factor {} and {}", name,
                settings.replication().map(String::valueOf).orElse("(the broker's default)"), new TreeMap<>(configs));
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new TopicException("cannot create topic '" + name + "': " + e.getCause().getMessage(), e.getCause());
            }
        } catch (Exception e) {
            throw new TopicException("cannot create topic '" + name + "': " + e, e);
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
                Map<String, String> values = new HashMap<>();
                config.entries().forEach(entry -> values.put(entry.name(), entry.value()));
                return values;
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

    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(2_000, 100L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicException("interrupted while waiting for topic metadata", e);
        }
    }
}
