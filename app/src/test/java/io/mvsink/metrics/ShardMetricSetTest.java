package io.mvsink.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

class ShardMetricSetTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MockTime time = new MockTime(0, 1_000_000, 0);

    private ShardMetricSet set(ShardMetrics m) {
        return ShardMetricSet.create(m, BuilderGauges.fixed(7, 2), List.of("bad-magic", "oversized-row"), time, List.of());
    }

    /** A shard name no other test of this JVM uses (JMX names are JVM-wide). */
    private static String unique(String shard) {
        return shard + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
    }

    @Test
    void shouldMoveACounterUnderItsKebabCaseTotalName() {
        ShardMetrics m = new ShardMetrics("orders");
        try (ShardMetricSet set = set(m)) {
            assertEquals(0.0, set.value("blob-puts-total"));
            m.partWritten(100);
            m.partWritten(50);
            m.appended(3, 2, 4, 80, 12);
            m.appended(1, 1, 1, 20, 30);
            assertEquals(2.0, set.value("blob-puts-total"));
            assertEquals(150.0, set.value("blob-bytes-total"));
            assertEquals(2.0, set.value("appends-total"));
            assertEquals(4.0, set.value("intervals-sealed-total"));
            assertEquals(2.5, set.value("parts-per-append"));
            assertEquals(1.5, set.value("batches-per-append"));
            assertEquals(0.0, set.value("participants-per-batch"));
            assertEquals(7.0, set.value("builder-queued-bytes"));
            assertEquals(30.0, set.value("seal-latency-max"));
            assertEquals(21.0, set.value("seal-latency-avg"));
            assertTrue(set.value("appends-rate") > 0, "appends per second");
            for (MetricName name : set.metrics().keySet()) {
                assertEquals("orders", name.tags().get("shard"), name + " carries the shard tag");
                assertTrue(name.name().matches("[a-z0-9]+(-[a-z0-9]+)*"), name.name() + " is kebab-case");
                assertFalse(name.description().isBlank(), name + " is described");
            }
        }
    }

    @Test
    void shouldForgetSealLatenciesOlderThanTheWindow() {
        ShardMetrics m = new ShardMetrics("s");
        try (ShardMetricSet set = set(m)) {
            assertTrue(Double.isNaN(set.value("seal-latency-p99")), "no sample yet");
            for (int i = 0; i < 100; i++) {
                m.appended(1, 1, 1, 10, 5_000);
            }
            double p99 = set.value("seal-latency-p99");
            assertTrue(p99 > 4_000 && p99 <= 5_000, "p99 of slow seals: " + p99);
            time.sleep(ShardMetricSet.WINDOW_S * ShardMetricSet.SAMPLES * 1_000L + 1);
            for (int i = 0; i < 100; i++) {
                m.appended(1, 1, 1, 10, 100);
            }
            double p50 = set.value("seal-latency-p50");
            p99 = set.value("seal-latency-p99");
            assertTrue(p99 <= 100 && p50 <= p99 && p50 > 50, "only the recent fast seals count: p50 " + p50 + ", p99 " + p99);
            assertEquals(100.0, set.value("seal-latency-max"), "the max is windowed too");
            assertEquals(5_000, m.sealLatency().max(), "the in-process recorder keeps its all-time max");
        }
    }

    @Test
    void shouldReadTheLagGaugesAtTheRegistrysClock() {
        ShardMetrics m = new ShardMetrics("s");
        try (ShardMetricSet set = set(m)) {
            assertEquals(-1.0, set.value("seal-lag-ms"));
            assertEquals(-1.0, set.value("frontier-lag-ms"));
            m.sealProgress().observed(0, 995_000, 997_000, 1);
            time.sleep(1_000);
            assertEquals(1_001_000 - 995_000.0, set.value("seal-lag-ms"));
            assertEquals(2_000.0, set.value("frontier-lag-ms"));
            assertEquals(995_000.0, set.value("sealed-upper"));
        }
    }

    @Test
    void shouldCountDeadLettersPerReason() {
        ShardMetrics m = new ShardMetrics("s");
        try (ShardMetricSet set = set(m)) {
            m.deadLettered("bad-magic");
            m.deadLettered("bad-magic");
            m.deadLettered("oversized-row");
            assertEquals("dead-lettered-bad-magic-total", ShardMetricSet.deadLetterCounter("bad-magic"));
            assertEquals(2.0, set.value(ShardMetricSet.deadLetterCounter("bad-magic")));
            assertEquals(1.0, set.value(ShardMetricSet.deadLetterCounter("oversized-row")));
            assertEquals(3.0, set.value("dead-lettered-records-total"));
        }
    }

    @Test
    void shouldStopFeedingTheSensorOnceClosed() {
        ShardMetrics m = new ShardMetrics("s");
        ShardMetricSet set = set(m);
        set.close();
        m.appended(1, 1, 1, 10, 5);
        assertTrue(set.metrics().isEmpty(), "closing removes every metric");
        assertEquals(1, m.appends(), "the in-process counters go on");
    }

    @Test
    void shouldExposeEachShardSeparatelyOverJmxAndUnregisterAtClose() throws Exception {
        ShardMetrics a = new ShardMetrics(unique("orders"));
        ShardMetrics b = new ShardMetrics(unique("payments"));
        ObjectName nameA = ShardJmx.objectName(a.shard());
        ObjectName nameB = ShardJmx.objectName(b.shard());
        try (ShardMetricSet ja = ShardJmx.register(a, BuilderGauges.fixed(7, 2), List.of("bad-magic"), Time.SYSTEM);
             ShardMetricSet jb = ShardJmx.register(b, BuilderGauges.fixed(7, 2), List.of("bad-magic"), Time.SYSTEM)) {
            a.partWritten(100);
            b.lateUpdate();
            assertEquals(new ObjectName("mvsink:type=mvsink-shard-metrics,shard=" + a.shard()), nameA);
            assertEquals(1.0, server.getAttribute(nameA, "blob-puts-total"));
            assertEquals(0.0, server.getAttribute(nameA, "late-updates-total"));
            assertEquals(1.0, server.getAttribute(nameB, "late-updates-total"));
            assertEquals(0.0, server.getAttribute(nameB, "blob-puts-total"));
            MBeanAttributeInfo[] attributes = server.getMBeanInfo(nameA).getAttributes();
            assertTrue(attributes.length >= 45, "every metric: " + attributes.length);
        }
        assertFalse(server.isRegistered(nameA), "closing unregisters");
        assertFalse(server.isRegistered(nameB), "closing unregisters");
        assertTrue(server.queryNames(new ObjectName("mvsink:shard=" + a.shard() + ",*"), null).isEmpty(),
            "nothing of the registry stays");
    }

    @Test
    void shouldRegisterTheMBeanOnceWithEveryMetricAlreadyInIt() throws Exception {
        // An operator's JMX client polling at start must never find the MBean gone or half-filled:
        // Kafka's reporter unregisters and registers an MBean again for each metric added to it.
        ShardMetrics m = new ShardMetrics(unique("once"));
        ObjectName name = ShardJmx.objectName(m.shard());
        List<Integer> attributesAtRegistration = new CopyOnWriteArrayList<>();
        NotificationListener listener = (notification, handback) -> {
            if (notification instanceof MBeanServerNotification n
                    && n.getType().equals(MBeanServerNotification.REGISTRATION_NOTIFICATION)
                    && n.getMBeanName().equals(name)) {
                try {
                    attributesAtRegistration.add(server.getMBeanInfo(name).getAttributes().length);
                } catch (JMException e) {
                    attributesAtRegistration.add(-1);
                }
            }
        };
        server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, listener, null, null);
        try (ShardMetricSet set = ShardJmx.register(m, BuilderGauges.fixed(0, 0), List.of("bad-magic"), Time.SYSTEM)) {
            assertEquals(1, attributesAtRegistration.size(), "registrations of " + name + ", attributes at each: "
                + attributesAtRegistration);
            assertEquals(set.metrics().size(), attributesAtRegistration.get(0), "every metric is in it when it appears");
        } finally {
            server.removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, listener);
        }
    }

    @Test
    void shouldRegisterAgainAfterClose() {
        ShardMetrics m = new ShardMetrics(unique("s"));
        ShardJmx.register(m, BuilderGauges.fixed(0, 0), List.of(), Time.SYSTEM).close();
        try (ShardMetricSet again = ShardJmx.register(m, BuilderGauges.fixed(0, 0), List.of(), Time.SYSTEM)) {
            assertTrue(server.isRegistered(ShardJmx.objectName(m.shard())));
        }
    }

    @Test
    void shouldKeepTheFirstRegistrationWhenTheNameIsTaken() throws Exception {
        String shard = unique("s");
        ShardMetrics first = new ShardMetrics(shard);
        first.lateUpdate();
        try (ShardMetricSet one = ShardJmx.register(first, BuilderGauges.fixed(0, 0), List.of(), Time.SYSTEM)) {
            ShardJmx.register(new ShardMetrics(shard), BuilderGauges.fixed(0, 0), List.of(), Time.SYSTEM).close();
            assertEquals(1.0, server.getAttribute(ShardJmx.objectName(shard), "late-updates-total"),
                "the second app did not take it over, nor remove it at its close");
        }
    }

    @Test
    void shouldQuoteShardNamesWithSpecialCharactersAsKafkasReporterDoes() {
        ObjectName name = ShardJmx.objectName("a,b=c:d");
        assertEquals("a,b=c:d", ObjectName.unquote(name.getKeyProperty("shard")));
        assertEquals("plain-name_1.x", ShardJmx.objectName("plain-name_1.x").getKeyProperty("shard"));
        ShardMetrics m = new ShardMetrics(unique("a,b=c:d"));
        try (ShardMetricSet set = ShardJmx.register(m, BuilderGauges.fixed(0, 0), List.of(), Time.SYSTEM)) {
            assertTrue(server.isRegistered(ShardJmx.objectName(m.shard())));
        }
    }

    @Test
    void shouldSumTheBufferGaugeOverLocalTasks() {
        ShardMetrics m = new ShardMetrics("s");
        m.bufferEntries(0, 10);
        m.bufferEntries(1, 5);
        m.bufferEntries(0, 3);
        assertEquals(8, m.correctionBufferEntries());
        m.bufferBytes(0, 700);
        m.bufferBytes(1, 300);
        assertEquals(1000, m.correctionBufferBytes());
        m.bufferClosed(1);
        assertEquals(3, m.correctionBufferEntries());
        assertEquals(700, m.correctionBufferBytes(), "a task that left no longer counts");
    }

    @Test
    void shouldListEveryMetricInTheReadmesTable() throws Exception {
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
        try (ShardMetricSet set = set(new ShardMetrics(unique("readme")))) {
            for (MetricName name : set.metrics().keySet()) {
                String shown = name.name().startsWith("dead-lettered-") && !name.name().equals("dead-lettered-records-total")
                    ? "`dead-lettered-<reason>-total`" : "`" + name.name() + "`";
                assertTrue(readme.contains("| " + shown + " |"), "README.md's metrics table lists " + name.name());
            }
        }
    }
}
