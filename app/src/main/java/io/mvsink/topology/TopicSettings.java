package io.mvsink.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;

/**
 * How mvsink creates the topics it owns: the replication factor and {@code min.insync.replicas}
 * of all three (-1: the broker's default), and the consensus topic's compaction settings, chosen
 * so that the log cleaner removes tombstoned diffs within a bounded time: the active segment rolls
 * (and becomes cleanable) within {@link #CONSENSUS_COMPACTION_LAG_MS}, the cleaner runs once a
 * tenth of the log is dirty or a record has waited that long, and tombstones go a day after.
 * A new reports or dead-letter topic takes records as large as the app's producer sends
 * ({@code maxMessageBytes}, -1: the broker's default, as when the producer's size is at Kafka's
 * default), as the changelogs do ({@code MvsinkApp}'s {@code topic.max.message.bytes}): a dead letter
 * the topic refused would stop the task at it.
 */
public record TopicSettings(int replicationFactor, int minInsyncReplicas, int maxMessageBytes) {
    /** Every setting left to the broker (the one-broker demo and tests). */
    public static final TopicSettings BROKER_DEFAULTS = new TopicSettings(-1, -1);
    /** The consensus topic's {@code segment.ms} and {@code max.compaction.lag.ms}: one hour. */
    public static final long CONSENSUS_COMPACTION_LAG_MS = 3_600_000L;
    /** The consensus topic's {@code delete.retention.ms}: one day. */
    public static final long CONSENSUS_DELETE_RETENTION_MS = 86_400_000L;
    /** The consensus topic's {@code min.cleanable.dirty.ratio}. */
    public static final String CONSENSUS_DIRTY_RATIO = "0.1";

    /** Replication and {@code min.insync.replicas} as given, {@code max.message.bytes} the broker's default. */
    public TopicSettings(int replicationFactor, int minInsyncReplicas) {
        this(replicationFactor, minInsyncReplicas, -1);
    }

    /** The replication factor a new topic is created with; empty: the broker's default. */
    public Optional<Short> replication() {
        return replicationFactor < 1 ? Optional.empty() : Optional.of((short) replicationFactor);
    }

    /** The configs of a new reports or dead-letter topic. */
    public Map<String, String> deletingTopicConfigs() {
        Map<String, String> configs = new HashMap<>(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
            TopicConfig.CLEANUP_POLICY_DELETE));
        if (maxMessageBytes > 0) {
            configs.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(maxMessageBytes));
        }
        return withInsync(configs);
    }

    /** The configs of a new consensus topic: compacted, with a bounded time to clean. */
    public Map<String, String> consensusTopicConfigs() {
        return withInsync(Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
            TopicConfig.SEGMENT_MS_CONFIG, Long.toString(CONSENSUS_COMPACTION_LAG_MS),
            TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, Long.toString(CONSENSUS_COMPACTION_LAG_MS),
            TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, CONSENSUS_DIRTY_RATIO,
            TopicConfig.DELETE_RETENTION_MS_CONFIG, Long.toString(CONSENSUS_DELETE_RETENTION_MS)));
    }

    private Map<String, String> withInsync(Map<String, String> configs) {
        Map<String, String> all = new HashMap<>(configs);
        if (minInsyncReplicas > 0) {
            all.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInsyncReplicas));
        }
        return Map.copyOf(all);
    }
}
