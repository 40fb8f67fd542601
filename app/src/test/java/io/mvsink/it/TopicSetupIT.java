package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.consensus.ConsensusReader;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.topology.SinkTopology;
import io.mvsink.topology.TopicException;
import io.mvsink.topology.TopicSetup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalStackExtension.class)
class TopicSetupIT {

    @Test
    void shouldCreateItsTopicsWithACompactedConsensusTopic(LocalStack stack) throws Exception {
        String n = "ts-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(n + "-c", 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
            int partitions = new TopicSetup(admin).ensure(new SinkTopology.Topics(n + "-c", n + "-r", n + "-k", n + "-d"));
            assertEquals(3, partitions);
            ConfigResource consensus = new ConfigResource(ConfigResource.Type.TOPIC, n + "-k");
            assertEquals("compact", admin.describeConfigs(List.of(consensus)).all().get().get(consensus)
                .get("cleanup.policy").value());
            assertTrue(admin.listTopics().names().get().containsAll(List.of(n + "-r", n + "-d")));
        }
    }

    @Test
    void shouldRefuseToStartOnAConsensusTopicThatIsNotCompacted(LocalStack stack) throws Exception {
        String n = "ts-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(n + "-c", 1, (short) 1),
                new NewTopic(n + "-k", 1, (short) 1).configs(Map.of("cleanup.policy", "delete"))))
                .all().get(60, TimeUnit.SECONDS);
            TopicException e = assertThrows(TopicException.class, () -> new TopicSetup(admin)
                .ensure(new SinkTopology.Topics(n + "-c", n + "-r", n + "-k", n + "-d")));
            assertTrue(e.getMessage().contains("cleanup.policy=delete") && e.getMessage().contains("compact"),
                e.getMessage());
        }
    }

    @Test
    void shouldNeverCreateTheConsensusTopicWhenReadingIt(LocalStack stack) throws Exception {
        String topic = "ts-" + UUID.randomUUID().toString().substring(0, 8) + "-k";
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());
        assertEquals(0, ConsensusReader.read(props, topic, "shard", Duration.ofSeconds(10)).seqno());
        try (Admin admin = Admin.create(props)) {
            assertTrue(!admin.listTopics().names().get().contains(topic),
                "a reader that created the topic would create it with the broker's default (deleting) policy");
        }
    }

    @Test
    void shouldRefuseToStartWithoutTheCorrectionsTopic(LocalStack stack) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            TopicException e = assertThrows(TopicException.class, () -> new TopicSetup(admin)
                .ensure(new SinkTopology.Topics("no-such-topic", "x-r", "x-k", "x-d")));
            assertTrue(e.getMessage().contains("no-such-topic"), e.getMessage());
        }
    }
}
