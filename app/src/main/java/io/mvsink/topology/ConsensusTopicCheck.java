package io.mvsink.topology;

import io.mvsink.config.MvsinkConfig;
import io.mvsink.protocol.RecordBound;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * What mvsink says about the consensus topic it runs on, decided from the topic's description
 * alone (replicas and configs, as {@code describeTopics}/{@code describeConfigs} give them): each
 * finding one line naming the topic, the values found and what to set. The topic is the shard's
 * only ledger, so it should survive a lost disk (3 replicas, {@code min.insync.replicas} 2), its
 * log cleaner should remove tombstoned diffs within a bounded time (a compacted topic's active
 * segment is never cleaned, and it rolls only after {@code segment.ms}, or
 * {@code max.compaction.lag.ms} when that is lower), and it should take the records mvsink plans
 * for (a rollup of up to 900 KiB; every record is kept within the topic's limit, {@link RecordBound},
 * but a smaller limit means smaller inline batches and skipped rollups).
 */
public final class ConsensusTopicCheck {
    /** The replicas and {@code min.insync.replicas} below which the ledger can be lost with one disk. */
    public static final int SAFE_REPLICAS = 3;
    public static final int SAFE_MIN_INSYNC = 2;
    /** The longest a diff may stay uncleanable before the warning: a day. */
    public static final long MAX_CLEAN_LAG_MS = 86_400_000L;
    /** The records mvsink plans for on the consensus topic: a rollup of 900 KiB, with room for the record's framing. */
    public static final int LARGEST_RECORD_BYTES = 900 * 1024 + 1024;

    private ConsensusTopicCheck() {
    }

    /**
     * The bound for a consensus topic whose {@code max.message.bytes} is {@code topicMaxMessageBytes}
     * and a producer whose {@code max.request.size} is {@code producerMaxRequestSize}.
     *
     * @throws TopicException if either is below {@link RecordBound#MIN_BYTES}
     */
    public static RecordBound recordBound(long topicMaxMessageBytes, long producerMaxRequestSize) {
        long limit = Math.min(topicMaxMessageBytes, producerMaxRequestSize);
        if (limit < RecordBound.MIN_BYTES) {
            throw new TopicException("the consensus topic's max.message.bytes (" + topicMaxMessageBytes
                + ") or the producer's max.request.size (" + producerMaxRequestSize + ") is below " + RecordBound.MIN_BYTES
                + " bytes: too small for a consensus record; raise it");
        }
        return new RecordBound((int) Math.min(Integer.MAX_VALUE, limit - RecordBound.HEADROOM));
    }

    /** The findings for {@code topic} with {@code replicas} (the fewest of any partition) and {@code configs}. */
    public static List<String> warnings(String topic, int replicas, Map<String, String> configs) {
        List<String> warnings = new ArrayList<>();
        int minInsync = intConfig(configs, TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, 1);
        if (replicas < SAFE_REPLICAS || minInsync < SAFE_MIN_INSYNC) {
            warnings.add(String.format(Locale.ROOT, "consensus topic '%s' (the shard's only ledger) has %d replica(s) "
                + "and min.insync.replicas=%d: one lost disk or broker can lose or roll back the shard; run with at "
                + "least %d replicas and min.insync.replicas=%d (%s=%d and %s=%d for a new topic; for this one, "
                + "kafka-reassign-partitions and kafka-configs)", topic, replicas, minInsync, SAFE_REPLICAS,
                SAFE_MIN_INSYNC, MvsinkConfig.TOPICS_REPLICATION_FACTOR, SAFE_REPLICAS,
                MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, SAFE_MIN_INSYNC));
        }
        long segmentMs = longConfig(configs, TopicConfig.SEGMENT_MS_CONFIG, 604_800_000L);
        long lagMs = longConfig(configs, TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, Long.MAX_VALUE);
        long cleanLagMs = Math.min(segmentMs, lagMs);
        if (cleanLagMs > MAX_CLEAN_LAG_MS) {
            warnings.add(String.format(Locale.ROOT, "consensus topic '%s' keeps superseded diffs (inline data "
                + "included) uncleaned for up to %d h (segment.ms=%d, max.compaction.lag.ms=%d: the active segment "
                + "is never cleaned), so the topic and every restart's, gc's, snapshot's and subscribe's read of it "
                + "grow with that much history; set max.compaction.lag.ms=%d on it (kafka-configs --alter)",
                topic, cleanLagMs / 3_600_000L, segmentMs, lagMs, TopicSettings.CONSENSUS_COMPACTION_LAG_MS));
        }
        int maxMessage = maxMessageBytes(configs);
        if (maxMessage < LARGEST_RECORD_BYTES) {
            warnings.add(String.format(Locale.ROOT, "consensus topic '%s' has max.message.bytes=%d, below the %d "
                + "bytes mvsink plans its records for: every append is kept within the limit, so inline batches "
                + "are capped lower, a rollup that does not fit is skipped (more diffs kept) and a seal too large "
                + "even without inline data stops the app; raise max.message.bytes on it to at least %d", topic,
                maxMessage, LARGEST_RECORD_BYTES, LARGEST_RECORD_BYTES));
        }
        return warnings;
    }

    /** The topic's {@code max.message.bytes} (Kafka's default when the description lacks it). */
    public static int maxMessageBytes(Map<String, String> configs) {
        return intConfig(configs, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, 1_048_588);
    }

    private static int intConfig(Map<String, String> configs, String name, int fallback) {
        String value = configs.get(name);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
    }

    private static long longConfig(Map<String, String> configs, String name, long fallback) {
        String value = configs.get(name);
        return value == null || value.isBlank() ? fallback : Long.parseLong(value.trim());
    }
}
