package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardJmx;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The per-shard MBean (Kafka's JMX reporter) as an operator sees it: over remote JMX from another process, moving with the workload. */
@ExtendWith(LocalStackExtension.class)
class JmxMetricsIT {

    @Test
    void shouldReportAShardsMetricsOverRemoteJmxFromAnotherProcess(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 3, new Properties());
             CorrectionProducer producer = sink.producer()) {
            int port = ChildJmx.freePort();
            try (ChildApp app = ChildApp.start(sink, "jmx", ChildJmx.agentOptions(port),
                     List.of("--set", "num.stream.threads=2"));
                 JMXConnector jmx = ChildJmx.connect(port, app.process())) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName shard = ShardJmx.objectName(sink.correctionsTopic());
                assertEquals(new ObjectName("mvsink:type=mvsink-shard-metrics,shard=" + sink.correctionsTopic()), shard);
                // Kafka's reporter registers the MBean with the first metric and adds the others to it
                await().atMost(Duration.ofSeconds(90)).until(() -> server.isRegistered(shard)
                    && server.getMBeanInfo(shard).getAttributes().length >= 45);

                WorkloadRunner runner = new WorkloadRunner(producer, new Workload(71, 200, 0.3), Time.SYSTEM);
                runner.run(800, 3_000, 3_000, 100, n -> { });
                sink.awaitUpper(runner.sealThrough(500));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertTrue(get(server, shard, "blob-puts-total") > 0, "parts written");
                    assertTrue(get(server, shard, "blob-bytes-total") > 0, "part bytes");
                    assertTrue(get(server, shard, "appends-total") > 0, "appends");
                    assertTrue(get(server, shard, "consensus-diff-bytes-total") > 0, "diff bytes");
                    assertTrue(get(server, shard, "intervals-sealed-total") > 0, "intervals sealed");
                    assertTrue(get(server, shard, "seal-latency-max") > 0, "seal latency after sealing");
                    assertTrue(get(server, shard, "updates-total") > 0, "updates");
                    assertTrue((Double) server.getAttribute(shard, "parts-per-append") > 0, "parts per append");
                    assertTrue((Double) server.getAttribute(shard, "appends-rate") > 0, "appends per second");
                });
                assertEquals(0, get(server, shard, "orphaned-batches-total"));
                long puts = get(server, shard, "blob-puts-total");
                long appends = get(server, shard, "appends-total");
                long sealed = get(server, shard, "intervals-sealed-total");

                WorkloadRunner more = new WorkloadRunner(producer, new Workload(74, 200, 0.3), Time.SYSTEM);
                more.run(800, 2_000, 1_600, 100, n -> { });
                sink.awaitUpper(more.sealThrough(500));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertTrue(get(server, shard, "blob-puts-total") > puts, () -> "more parts written: " + describe(server, shard));
                    assertTrue(get(server, shard, "appends-total") > appends, "more appends");
                    assertTrue(get(server, shard, "intervals-sealed-total") > sealed, "more intervals sealed");
                });
                assertTrue(get(server, shard, "seal-latency-p99") >= get(server, shard, "seal-latency-p50"));
                assertTrue(get(server, shard, "seal-latency-max") >= get(server, shard, "seal-latency-p99"),
                    "the percentiles read their bucket's lower bound, never above the window's max");
            }
        }
    }

    @Test
    void shouldKeepTwoShardsOfOneJvmInTwoMBeans(LocalStack stack) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (SinkHarness a = new SinkHarness(stack, 3, new Properties());
             SinkHarness b = new SinkHarness(stack, 3, new Properties());
             BatchCoalescer shared = Wiring.batches(a.config(0), a.blobs, a.registry, Time.SYSTEM);
             CorrectionProducer producerA = a.producer();
             CorrectionProducer producerB = b.producer()) {
            MvsinkApp appA = a.startApp(2, shared);
            MvsinkApp appB = b.startApp(2, shared);
            ObjectName nameA = ShardJmx.objectName(a.correctionsTopic());
            ObjectName nameB = ShardJmx.objectName(b.correctionsTopic());
            WorkloadRunner runA = new WorkloadRunner(producerA, new Workload(72, 200, 0.3), Time.SYSTEM);
            WorkloadRunner runB = new WorkloadRunner(producerB, new Workload(73, 200, 0.3), Time.SYSTEM);
            runA.run(1000, 2_000, 2_000, 100, n -> { });
            runB.run(400, 1_000, 400, 100, n -> { });
            a.awaitUpper(runA.sealThrough(500));
            b.awaitUpper(runB.sealThrough(500));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertEquals(appA.metrics().updates(), get(server, nameA, "updates-total"));
                assertEquals(appB.metrics().updates(), get(server, nameB, "updates-total"));
                assertTrue(get(server, nameA, "appends-total") > 0 && get(server, nameB, "appends-total") > 0);
            });
            assertNotEquals(get(server, nameA, "updates-total"), get(server, nameB, "updates-total"),
                "each shard's MBean counts its own updates");
            assertEquals(appA.metrics().partsWritten(), get(server, nameA, "blob-puts-total"));
            assertEquals(appB.metrics().partsWritten(), get(server, nameB, "blob-puts-total"));

            appA.close(Duration.ofSeconds(30));
            assertFalse(server.isRegistered(nameA), "closing the app unregisters its MBean");
            assertTrue(server.isRegistered(nameB));
            a.startApp(2, shared);
            assertTrue(server.isRegistered(nameA), "a restarted app registers its shard's MBean again");
            assertEquals(0, get(server, nameA, "blob-puts-total"), "the new app counts from zero");
        }
    }

    private static long get(MBeanServerConnection server, ObjectName name, String attribute) throws Exception {
        return ChildJmx.get(server, name, attribute);
    }

    private static String describe(MBeanServerConnection server, ObjectName name) {
        try {
            StringBuilder text = new StringBuilder();
            for (String a : List.of("blob-puts-total", "appends-total", "intervals-sealed-total", "updates-total", "late-updates-total",
                    "dead-lettered-records-total", "contributions-total", "batches-built-total", "abandoned-batches-total", "recontributions-total")) {
                text.append(a).append('=').append(server.getAttribute(name, a)).append(' ');
            }
            return text.toString();
        } catch (Exception e) {
            return e.toString();
        }
    }
}
