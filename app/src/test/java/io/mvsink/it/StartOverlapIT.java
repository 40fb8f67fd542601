package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.registry.ForwardingRegistry;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The start overlaps what need not be serial (issue 23: the launch to the first append). It checks
 * the schema registry while it sets up the Kafka topics: a registry whose start-up check answers
 * only once the app has created the shard's consensus topic lets the app start; checked one after
 * the other, the check would wait for a topic that the app creates only after it. And it starts the
 * stream threads once the topics exist, while it waits for the blob store: a blob store that starts
 * only once the app's consumer group has members lets the app start, and nothing is written before
 * the blob store started.
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

    @Test
    void shouldStartTheStreamThreadsWhileTheBlobStoreStarts(LocalStack stack) throws Exception {
        AtomicReference<String> group = new AtomicReference<>();
        AtomicBoolean sawMembers = new AtomicBoolean();
        AtomicInteger puts = new AtomicInteger();
        AtomicInteger putsBeforeStarted = new AtomicInteger(-1);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()));
             SinkHarness sink = new SinkHarness(stack, 2, new Properties(), blobs -> new ForwardingBlobStore(blobs) {
                 @Override
                 public void putIfAbsent(String key, byte[] data, String owner) {
                     puts.incrementAndGet();
                     super.putIfAbsent(key, data, owner);
                 }

                 @Override
                 public void awaitStarted() {
                     String id = group.get();
                     if (id != null && !sawMembers.get()) {
                         long deadline = System.nanoTime() + TOPIC_WAIT.toNanos();
                         while (!groupHasMembers(admin, id)) {
                             if (System.nanoTime() > deadline) {
                                 throw new IllegalStateException("the app waited for the blob store and group " + id
                                     + " had no member within " + TOPIC_WAIT + ": the stream threads start only after it");
                             }
                             sleep();
                         }
                         putsBeforeStarted.set(puts.get());
                         sawMembers.set(true);
                     }
                     super.awaitStarted();
                 }
             });
             CorrectionProducer producer = sink.producer()) {
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(37, 100, 0.3), Time.SYSTEM);
            runner.run(1000, 1_000, 1_000, 100, n -> { });
            group.set(sink.config(0).applicationId());
            sink.startApp(1);
            assertTrue(sawMembers.get(), "the blob store was awaited once the stream threads had joined the group");
            assertEquals(0, putsBeforeStarted.get(), "no part was written before the blob store started");
            sink.assertSealedExactly(runner.sealThrough(500));
        }
    }

    private static boolean groupHasMembers(Admin admin, String group) {
        try {
            return !admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group)
                .members().isEmpty();
        } catch (Exception e) {
            return false;
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
