package io.mvsink.metrics;

import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.utils.internals.Sanitizer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shard's metrics over JMX: its {@link ShardMetricSet} reported by Kafka's {@link JmxReporter} as
 * one MBean, {@code mvsink:type=mvsink-shard-metrics,shard=<shard>}, registered for the life of its
 * app (closing the set unregisters it). If another app of the same shard in this JVM already holds
 * the name (tests run two instances in one JVM), this one stays off JMX and says so: Kafka's
 * reporter would take the name over, and unregister it under the first app at close.
 */
public final class ShardJmx {
    private static final Logger LOG = LoggerFactory.getLogger(ShardJmx.class);

    private ShardJmx() {
    }

    /** The ObjectName of {@code shard}'s MBean; the value is quoted when it holds characters JMX reserves. */
    public static ObjectName objectName(String shard) {
        // quoted as Kafka's JmxReporter quotes tag values, so that this is the name it registers
        try {
            return new ObjectName(ShardMetricSet.PREFIX + ":type=" + ShardMetricSet.GROUP + ",shard="
                + Sanitizer.jmxSanitize(shard));
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("shard name " + shard + " makes no JMX ObjectName", e);
        }
    }

    /** {@code m}'s metric set, reported to the platform MBean server unless its name is taken. */
    public static ShardMetricSet register(ShardMetrics m, BuilderGauges builders, List<String> deadLetterReasons,
                                          Time time) {
        ObjectName name = objectName(m.shard());
        if (ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            LOG.warn("{} is already registered by another app of this shard in this JVM; this app's metrics are "
                + "not exposed over JMX", name);
            return ShardMetricSet.create(m, builders, deadLetterReasons, time, List.of());
        }
        return ShardMetricSet.create(m, builders, deadLetterReasons, time, List.of(new JmxReporter()));
    }
}
