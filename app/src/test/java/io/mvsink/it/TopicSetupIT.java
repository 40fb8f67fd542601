package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.consensus.ConsensusReader;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.topology.SinkTopology;
import io.mvsink.topology.TopicException;
import io.mvsink.topology.TopicSettings;
import io.mvsink.topology.TopicSetup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalStackExtension.class)
class TopicSetupIT {

    @Test
    void shouldCreateItsTopicsWithACompactedConsensusTopicThatIsCleanedWithinTheHour(LocalStack stack) throws Exception {
        String n = "ts-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(n + "-c", 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
            TopicSetup.Setup setup = new TopicSetup(admin, new TopicSettings(1, 1))
                .setUp(new SinkTopology.Topics(n + "-c", n + "-r", n + "-k", n + "-d"));
            assertEquals(3, setup.partitions());
            Map<String, String> consensus = configs(admin, n + "-k");
            assertEquals("compact", consensus.get("cleanup.policy"));
            assertEquals("3600000", consensus.get("segment.ms"));
            assertEquals("3600000", consensus.get("max.compaction.lag.ms"));
            assertEquals("0.1", consensus.get("min.cleanable.dirty.ratio"));
            assertEquals("86400000", consensus.get("delete.retention.ms"));
            for (String topic : List.of(n + "-k", n + "-r", n + "-d")) {
                assertEquals("1", configs(admin, topic).get("min.insync.replicas"), topic);
                assertEquals(1, admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                    .get(0).replicas().size(), topic);
            }
            assertEquals("delete", configs(admin, n + "-r").get("cleanup.policy"));
            // the one-broker stack cannot replicate: the one warning says so, and the setup goes on
            assertEquals(1, setup.warnings().size(), setup.warnings().toString());
            assertTrue(setup.warnings().get(0).contains("1 replica(s) and min.insync.replicas=1"),
                setup.warnings().get(0));
        }
    }

    @Test
    void shouldCreateTheChangelogsAheadOnceAndLeaveExistingOnesAsTheyAre(LocalStack stack) throws Exception {
        String n = "ts-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            Map<String, Integer> changelogs = SinkTopology.changelogs(n, 3, 1);
            String appender = n + "-mvsink-appender-changelog";
            // one exists already, as a first launch that failed later left it (or an operator made it)
            admin.createTopics(List.of(new NewTopic(appender, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                "retention.ms", "123456789")))).all().get(60, TimeUnit.SECONDS);
            TopicSetup setup = new TopicSetup(admin, new TopicSettings(1, 1));
            Map<String, String> configs = Map.of("cleanup.policy", "compact", "message.timestamp.type", "CreateTime",
                "min.insync.replicas", "1");

            List<String> created = setup.createChangelogs(changelogs, Optional.of((short) 1), configs);

            assertEquals(changelogs.keySet().stream().filter(t -> !t.equals(appender)).sorted().toList(), created);
            Map<String, TopicDescription> described = admin.describeTopics(changelogs.keySet()).allTopicNames()
                .get(60, TimeUnit.SECONDS);
            for (Map.Entry<String, Integer> changelog : changelogs.entrySet()) {
                String topic = changelog.getKey();
                assertEquals(changelog.getValue(), described.get(topic).partitions().size(), topic);
                assertEquals("compact", configs(admin, topic).get("cleanup.policy"), topic);
            }
            assertEquals("123456789", configs(admin, appender).get("retention.ms"), "an existing changelog is not changed");
            assertEquals("CreateTime", configs(admin, n + "-mvsink-correction-buffer-changelog").get("message.timestamp.type"));
            assertEquals(List.of(), setup.createChangelogs(changelogs, Optional.of((short) 1), configs), "all exist now");
        }
    }

    @Test
    void shouldWarnAboutAnExistingConsensusTopicWithBrokerDefaultsAndASmallMaxMessageBytes(LocalStack stack)
            throws Exception {
        String n = "ts-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(n + "-c", 1, (short) 1), new NewTopic(n + "-k", 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", "65536"))))
                .all().get(60, TimeUnit.SECONDS);

            SinkTopology.Topics topics = new SinkTopology.Topics(n + "-c", n + "-r", n + "-k", n + "-d");
            TopicException e = assertThrows(TopicException.class,
                () -> new TopicSetup(admin, new TopicSettings(3, 2)).setUp(topics));
            assertTrue(e.getMessage().contains(n + "-r") && e.getMessage().contains("replication factor"),
                "one broker cannot hold 3 replicas: " + e.getMessage());

            TopicSetup.Setup setup = new TopicSetup(admin, TopicSettings.BROKER_DEFAULTS).setUp(topics);

            assertEquals(65_536, setup.consensusMaxMessageBytes());
            String all = String.join("\n", setup.warnings());
            assertEquals(3, setup.warnings().size(), all);
            assertTrue(all.contains("'" + n + "-k' (the shard's only ledger) has 1 replica(s)"), all);
            assertTrue(all.contains("segment.ms=604800000"), all);
            assertTrue(all.contains("max.message.bytes=65536"), all);
            assertEquals("65536", configs(admin, n + "-k").get("max.message.bytes"), "an existing topic is not changed");
        }
    }

    private static Map<String, String> configs(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<String, String> values = new java.util.HashMap<>();
        admin.describeConfigs(List.of(resource)).all().get(60, TimeUnit.SECONDS).get(resource).entries()
            .forEach(e -> values.put(e.name(), e.value()));
        return values;
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
