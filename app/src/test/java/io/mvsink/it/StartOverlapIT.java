package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.registry.ForwardingRegistry;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The start checks the schema registry while it sets up the Kafka topics (issue 23: the launch to
 * the first append), not before: a registry whose start-up check answers only once the app has
 * created the shard's consensus topic lets the app start. Checked one after the other, the check
 * would wait for a topic that the app creates only after it.
 */
@ExtendWith(LocalStackExtension.class)
class StartOverlapIT {
    private static final Duration TOPIC_WAIT = Duration.ofSeconds(30);

    @Test
    void shouldCheckTheRegistryWhileTheTopicsAreSetUp(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            MvsinkConfig config = sink.config(0);
            AtomicBoolean sawTopic = new AtomicBoolean();
            SchemaRegistry answersOnceTheTopicExists = new ForwardingRegistry(sink.registry) {
                @Override
                public String compatibility(String subject) {
                    long deadline = System.nanoTime() + TOPIC_WAIT.toNanos();
                    while (System.nanoTime() < deadline) {
                        if (topicExists(admin, config.consensusTopic())) {
                            sawTopic.set(true);
                            return super.compatibility(subject);
                        }
                        sleep();
                    }
                    throw new IllegalStateException("the registry was checked and no " + config.consensusTopic()
                        + " appeared within " + TOPIC_WAIT + ": the topics are set up only after the check");
                }
            };
            try (BatchCoalescer batches = Wiring.batches(config, sink.appBlobs, answersOnceTheTopicExists, Time.SYSTEM);
                 MvsinkApp app = new MvsinkApp(config, new MvsinkApp.Dependencies(answersOnceTheTopicExists,
                     sink.appBlobs, batches, new ShardMetrics(config.shard()), Time.SYSTEM))) {
                app.start();
                assertTrue(sawTopic.get(), "the start-up check answered after the consensus topic appeared");
                await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
            }
        }
    }

    private static boolean topicExists(Admin admin, String topic) {
        try {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic);
        } catch (Exception e) {
            throw new IllegalStateException("could not list the topics", e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
