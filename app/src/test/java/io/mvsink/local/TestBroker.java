package io.mvsink.local;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * The integration tests' Kafka: one combined broker+controller in this JVM
 * ({@link KafkaClusterTestKit}), configured like the demo's broker process so exactly-once
 * works on it. Tests that need to stop or restart the broker (e.g. to fence a producer or
 * lose a leader) reach the test kit through {@link #cluster()}.
 */
public final class TestBroker implements AutoCloseable {

    private final KafkaClusterTestKit cluster;

    private TestBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Formats, starts and waits for a single-node cluster. */
    static TestBroker start() {
        KafkaClusterTestKit cluster = null;
        try {
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build();
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
            KafkaBrokerProcess.singleBrokerOverrides().forEach(builder::setConfigProp);
            // the log cleaner looks for dirty compacted logs every second (default 15 s), so a
            // test can watch the consensus topic shrink
            builder.setConfigProp("log.cleaner.backoff.ms", "1000");
            cluster = builder.build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new TestBroker(cluster);
        } catch (Exception e) {
            closeQuietly(cluster, e);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new LocalStackException("the in-JVM Kafka test broker did not start", e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** The id of the one broker, e.g. for {@code cluster().restartBroker(brokerId(), Map.of())}. */
    public int brokerId() {
        return cluster.brokers().keySet().iterator().next();
    }

    /** The running test kit, to stop, restart or inspect the broker. */
    public KafkaClusterTestKit cluster() {
        return cluster;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new LocalStackException("could not stop the in-JVM Kafka test broker", e);
        }
    }

    private static void closeQuietly(KafkaClusterTestKit cluster, Exception failure) {
        if (cluster == null) {
            return;
        }
        try {
            cluster.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
