package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.topology.TopicException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A compacted corrections topic ({@code cleanup.policy} {@code compact} or {@code compact,delete}):
 * the log cleaner keeps only the last record per key, so an insert and its retraction (same row key,
 * as producers partition) come down to the retraction, and progress records (null values) are
 * tombstones it deletes. What a lagging or restarted sink reads is then not what was produced, and a
 * task that replays reads other input than it read first (rule 3's determinism). Before this test
 * the app started on such a topic; now the start fails, naming the setting.
 */
@ExtendWith(LocalStackExtension.class)
class CompactedCorrectionsIT {

    @ParameterizedTest
    @ValueSource(strings = {"compact", "compact,delete"})
    void shouldRefuseToStartOnACompactedCorrectionsTopic(String policy, LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, new Properties())) {
            try (Admin admin = Admin.create(sink.clientProps())) {
                admin.incrementalAlterConfigs(Map.of(
                    new ConfigResource(ConfigResource.Type.TOPIC, sink.correctionsTopic()),
                    List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, policy),
                        AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            }
            TopicException refused = assertThrows(TopicException.class, () -> sink.startApp(1));
            assertTrue(refused.getMessage().contains("cleanup.policy=" + policy)
                && refused.getMessage().contains("delete"), refused.getMessage());
        }
    }
}
