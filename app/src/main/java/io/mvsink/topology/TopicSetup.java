package io.mvsink.topology;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Creates the topics mvsink owns (reports, consensus, dead-letter) with the right settings and
 * validates existing ones. The corrections topic must exist: it is the producer's.
 */
public final class TopicSetup {
    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);
    private static final long TIMEOUT_S = 60;
    private static final int METADATA_ATTEMPTS = 10;
    private static final int MISSING_ATTEMPTS = 4;

    private final Admin admin;

    public TopicSetup(Admin admin) {
        this.admin = admin;
    }

    /** Ensures every topic of {@code topics}; returns the corrections topic's partition count. */
    public int ensure(SinkTopology.Topics topics) {
        int partitions = describeJustCreated(topics.corrections())
            .orElseThrow(() -> new TopicException("corrections topic '" + topics.corrections()
                + "' does not exist: create it (partitioned by row key) or set corrections.topic"))
            .partitions().size();
        ensureTopic(topics.reports(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE));
        ensureTopic(topics.deadLetter(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE));
        ensureTopic(topics.consensus(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        String policy = cleanupPolicy(topics.consensus());
        if (!TopicConfig.CLEANUP_POLICY_COMPACT.equals(policy)) {
            throw new TopicException("consensus topic '" + topics.consensus() + "' has cleanup.policy=" + policy
                + "; it must be exactly 'compact' (a deleting policy would lose appends): fix the topic or "
                + "point consensus.topic at another one");
        }
        return partitions;
    }

    private void ensureTopic(String name, Map<String, String> configs) {
        if (describe(name).isPresent()) {
            return;
        }
        try {
            NewTopic topic = new NewTopic(name, Optional.of(1), Optional.empty()).configs(configs);
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
            LOG.info("created topic {} with {}", name, configs);
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

    /**
     * The consensus topic's {@code max.message.bytes} (the topic's own or the broker's default): the
     * largest record a seal may write ({@link RecordBound}). Read after {@link #ensure}.
     */
    public int maxMessageBytes(String consensus) {
        String value = config(consensus).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value();
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new TopicException("consensus topic '" + consensus + "' has max.message.bytes=" + value
                + ", not a number", e);
        }
    }

    /** The topic's cleanup policy. */
    private String cleanupPolicy(String name) {
        return config(name).get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
    }

    /** The topic's configuration; a topic created a moment ago may not be known to every broker yet. */
    private Config config(String name) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
        for (int attempt = 1; ; attempt++) {
            try {
                return admin.describeConfigs(List.of(resource)).all().get(TIMEOUT_S, TimeUnit.SECONDS)
                    .get(resource);
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
