package io.mvsink.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class ShardJmxTest {
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    @Test
    void shouldExposeEachShardSeparately() throws Exception {
        ShardMetrics a = new ShardMetrics("orders");
        ShardMetrics b = new ShardMetrics("payments");
        try (ShardJmx ja = ShardJmx.register(server, "orders", new ShardMBean(a, BuilderGauges.fixed(7, 2), List.of("bad-magic")));
             ShardJmx jb = ShardJmx.register(server, "payments", new ShardMBean(b, BuilderGauges.fixed(7, 2), List.of("bad-magic")))) {
            a.partWritten(100);
            a.partWritten(50);
            a.appended(3, 2, 4, 80, 12);
            a.appended(1, 1, 1, 20, 30);
            b.lateUpdate();
            ObjectName orders = new ObjectName("io.mvsink:type=shard,shard=orders");
            assertEquals(orders, ja.name());
            assertEquals(2L, server.getAttribute(orders, "BlobPuts"));
            assertEquals(150L, server.getAttribute(orders, "BlobBytes"));
            assertEquals(2L, server.getAttribute(orders, "Appends"));
            assertEquals(4L, server.getAttribute(orders, "IntervalsSealed"));
            assertEquals(2.5, server.getAttribute(orders, "PartsPerAppend"));
            assertEquals(1.5, server.getAttribute(orders, "BatchesPerAppend"));
            assertEquals(30L, server.getAttribute(orders, "SealLatencyMaxMs"));
            assertEquals(12L, server.getAttribute(orders, "SealLatencyP50Ms"));
            assertEquals(7L, server.getAttribute(orders, "BuilderQueuedBytes"));
            assertEquals(0L, server.getAttribute(orders, "LateUpdates"));
            assertEquals(1L, server.getAttribute(jb.name(), "LateUpdates"));
            assertEquals(0L, server.getAttribute(jb.name(), "BlobPuts"));
            assertEquals(0.0, server.getAttribute(jb.name(), "ParticipantsPerBatch"));
        }
        assertTrue(server.queryNames(new ObjectName("io.mvsink:*"), null).isEmpty(), "closing unregisters");
    }

    @Test
    void shouldSumTheBufferGaugeOverLocalTasks() {
        ShardMetrics m = new ShardMetrics("s");
        m.bufferEntries(0, 10);
        m.bufferEntries(1, 5);
        m.bufferEntries(0, 3);
        assertEquals(8, m.correctionBufferEntries());
        m.bufferClosed(1);
        assertEquals(3, m.correctionBufferEntries());
    }

    @Test
    void shouldRegisterAgainAfterClose() {
        ShardMetrics m = new ShardMetrics("s");
        ShardJmx.register(server, "s", new ShardMBean(m, BuilderGauges.fixed(0, 0), List.of("bad-magic"))).close();
        try (ShardJmx again = ShardJmx.register(server, "s", new ShardMBean(m, BuilderGauges.fixed(0, 0), List.of("bad-magic")))) {
            assertTrue(server.isRegistered(again.name()));
        }
    }

    @Test
    void shouldKeepTheFirstRegistrationWhenTheNameIsTaken() throws Exception {
        ShardMetrics first = new ShardMetrics("s");
        first.lateUpdate();
        try (ShardJmx one = ShardJmx.register(server, "s", new ShardMBean(first, BuilderGauges.fixed(0, 0), List.of("bad-magic")))) {
            ShardJmx.register(server, "s", new ShardMBean(new ShardMetrics("s"), BuilderGauges.fixed(0, 0), List.of("bad-magic"))).close();
            assertEquals(1L, server.getAttribute(one.name(), "LateUpdates"), "the second app did not take it over");
        }
    }

    @Test
    void shouldQuoteShardNamesWithSpecialCharacters() {
        ObjectName name = ShardJmx.objectName("a,b=c:d");
        assertEquals("a,b=c:d", ObjectName.unquote(name.getKeyProperty("shard")));
        assertEquals("plain-name_1.x", ShardJmx.objectName("plain-name_1.x").getKeyProperty("shard"));
    }

    @Test
    void shouldDescribeEveryAttribute() {
        MBeanAttributeInfo[] attributes = new ShardMBean(new ShardMetrics("s"), BuilderGauges.fixed(0, 0), List.of("bad-magic"))
            .getMBeanInfo().getAttributes();
        assertTrue(attributes.length >= 25);
        assertFalse(Arrays.stream(attributes).anyMatch(a -> a.getDescription().isBlank() || a.isWritable()));
    }

    @Test
    void shouldCountDeadLettersPerReason() throws Exception {
        ShardMetrics m = new ShardMetrics("s");
        ShardMBean bean = new ShardMBean(m, BuilderGauges.fixed(0, 0), List.of("bad-magic", "oversized-row"));
        m.deadLettered("bad-magic");
        m.deadLettered("bad-magic");
        m.deadLettered("oversized-row");
        assertEquals(2L, bean.getAttribute("DeadLetteredBadMagic"));
        assertEquals(1L, bean.getAttribute("DeadLetteredOversizedRow"));
        assertEquals(3L, bean.getAttribute("DeadLetteredRecords"));
    }
}
