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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A corrections topic whose {@code message.timestamp.type} is {@code LogAppendTime} (set on the topic,
 * or inherited from a broker's {@code log.message.timestamp.type}): the broker replaces every record's
 * timestamp, which the input contract makes the update's time, with its own clock. Before this test
 * the app started on it and would have sealed every update at the time the broker appended it: wrong
 * data, silently, with the producer's progress promises no longer covering them. Now the start fails,
 * naming the setting and its fix.
 */
@ExtendWith(LocalStackExtension.class)
class LogAppendTimeIT {

    @Test
    void shouldRefuseToStartOnACorrectionsTopicWhoseBrokerStampsTheTimes(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, new Properties())) {
            try (Admin admin = Admin.create(sink.clientProps())) {
                admin.incrementalAlterConfigs(Map.of(
                    new ConfigResource(ConfigResource.Type.TOPIC, sink.correctionsTopic()),
                    List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                        "LogAppendTime"), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            }
            TopicException refused = assertThrows(TopicException.class, () -> sink.startApp(1));
            assertTrue(refused.getMessage().contains("message.timestamp.type=LogAppendTime")
                && refused.getMessage().contains("CreateTime"), refused.getMessage());
        }
    }
}
