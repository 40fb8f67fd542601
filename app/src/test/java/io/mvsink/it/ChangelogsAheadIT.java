package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.topology.SinkTopology;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23 (launch to the first append): a new application id's changelog topics exist when
 * {@code MvsinkApp.start()} returns, created on a thread of the start's own beside the consensus read and the registry check,
 * so that Kafka Streams' first assignment finds them instead of creating them and waiting for them
 * (about 0.35 s of a first launch). Kafka Streams creates its internal topics only in the group's
 * first rebalance, after {@code start()} has returned and the stream threads have joined: without
 * the creation ahead none of them exists at that point. Once running, the app's changelog topics
 * are exactly those mvsink created (Kafka Streams accepted them and needed no other), compacted,
 * one partition per corrections partition (the appender's store: one).
 */
@ExtendWith(LocalStackExtension.class)
class ChangelogsAheadIT {

    @Test
    void shouldHaveTheChangelogTopicsBeforeKafkaStreamsRebalances(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            MvsinkConfig config = sink.config(0);
            Map<String, Integer> expected = SinkTopology.changelogs(config.applicationId(), 2, 1);
            try (BatchCoalescer batches = Wiring.batches(config, sink.appBlobs, sink.registry, Time.SYSTEM);
                 MvsinkApp app = new MvsinkApp(config, new MvsinkApp.Dependencies(sink.registry, sink.appBlobs,
                     batches, new ShardMetrics(config.shard()), Time.SYSTEM))) {
                app.start();
                Set<String> atStart = admin.listTopics().names().get(30, TimeUnit.SECONDS);
                assertTrue(atStart.containsAll(expected.keySet()), "changelog topics when start() returned: "
                    + changelogs(atStart, config.applicationId()) + ", expected " + expected.keySet());

                await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
                Set<String> running = changelogs(admin.listTopics().names().get(30, TimeUnit.SECONDS),
                    config.applicationId());
                assertEquals(expected.keySet(), running, "the changelog topics Kafka Streams uses");
                Map<String, Integer> partitions = new TreeMap<>();
                for (TopicDescription d : admin.describeTopics(running).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
                    partitions.put(d.name(), d.partitions().size());
                    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, d.name());
                    assertEquals("compact", admin.describeConfigs(Set.of(resource)).all().get(30, TimeUnit.SECONDS)
                        .get(resource).get("cleanup.policy").value(), d.name());
                }
                assertEquals(expected, partitions);
            }
        }
    }

    private static Set<String> changelogs(Set<String> topics, String applicationId) {
        return topics.stream().filter(t -> t.startsWith(applicationId + "-") && t.endsWith("-changelog"))
            .collect(Collectors.toCollection(TreeSet::new));
    }
}
