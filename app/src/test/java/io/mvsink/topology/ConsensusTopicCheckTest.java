package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.config.MvsinkConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsensusTopicCheckTest {

    /** The configs a broker reports for a consensus topic mvsink created with 3 replicas and 2 in sync. */
    private static Map<String, String> created() {
        Map<String, String> configs = new HashMap<>(new TopicSettings(3, 2).consensusTopicConfigs());
        configs.put("max.message.bytes", "1048588");
        return configs;
    }

    @Test
    void shouldFindNothingWrongWithATopicMvsinkCreatedForProduction() {
        assertEquals(List.of(), ConsensusTopicCheck.warnings("k", 3, created()));
    }

    @Test
    void shouldWarnOnceNamingTheReplicasTheInsyncReplicasAndTheOptionsToSet() {
        Map<String, String> configs = created();
        configs.put("min.insync.replicas", "1");

        String line = onlyWarning(1, configs);

        assertTrue(line.contains("'k'") && line.contains("1 replica(s)") && line.contains("min.insync.replicas=1")
            && line.contains(MvsinkConfig.TOPICS_REPLICATION_FACTOR + "=3")
            && line.contains(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS + "=2") && !line.contains("\n"), line);
    }

    @Test
    void shouldWarnWhenEitherTheReplicasOrTheInsyncReplicasAreShort() {
        Map<String, String> oneInsync = created();
        oneInsync.put("min.insync.replicas", "1");
        assertEquals(1, ConsensusTopicCheck.warnings("k", 3, oneInsync).size());
        assertEquals(1, ConsensusTopicCheck.warnings("k", 2, created()).size());
    }

    @Test
    void shouldWarnWhenTheActiveSegmentKeepsDiffsUncleanedForDays() {
        Map<String, String> brokerDefaults = created();
        brokerDefaults.put("segment.ms", "604800000");
        brokerDefaults.put("max.compaction.lag.ms", Long.toString(Long.MAX_VALUE));

        String line = onlyWarning(3, brokerDefaults);

        assertTrue(line.contains("168 h") && line.contains("max.compaction.lag.ms=3600000"), line);
        brokerDefaults.put("max.compaction.lag.ms", "3600000");
        assertEquals(List.of(), ConsensusTopicCheck.warnings("k", 3, brokerDefaults),
            "max.compaction.lag.ms rolls and cleans the active segment within the hour");
    }

    @Test
    void shouldWarnWhenARollupWouldNotFitTheTopicsMaxMessageBytes() {
        Map<String, String> small = created();
        small.put("max.message.bytes", "65536");

        String line = onlyWarning(3, small);

        assertTrue(line.contains("max.message.bytes=65536"), line);
        assertEquals(65_536, ConsensusTopicCheck.maxMessageBytes(small));
    }

    @Test
    void shouldCreateACompactedConsensusTopicThatIsCleanedWithinTheHour() {
        Map<String, String> configs = TopicSettings.BROKER_DEFAULTS.consensusTopicConfigs();
        assertEquals("compact", configs.get("cleanup.policy"));
        assertEquals("3600000", configs.get("segment.ms"));
        assertEquals("3600000", configs.get("max.compaction.lag.ms"));
        assertEquals("0.1", configs.get("min.cleanable.dirty.ratio"));
        assertEquals("86400000", configs.get("delete.retention.ms"));
        assertTrue(!configs.containsKey("min.insync.replicas"), "-1 leaves it to the broker");
        assertTrue(TopicSettings.BROKER_DEFAULTS.replication().isEmpty());
        assertEquals("2", new TopicSettings(3, 2).deletingTopicConfigs().get("min.insync.replicas"));
        assertEquals((short) 3, new TopicSettings(3, 2).replication().orElseThrow());
    }

    private static String onlyWarning(int replicas, Map<String, String> configs) {
        List<String> warnings = ConsensusTopicCheck.warnings("k", replicas, configs);
        assertEquals(1, warnings.size(), warnings.toString());
        return warnings.get(0);
    }
}
