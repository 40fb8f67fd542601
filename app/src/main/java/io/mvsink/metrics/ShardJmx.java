package io.mvsink.metrics;

import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard's MBean, {@code io.mvsink:type=shard,shard=<shard>}, registered for the life of its app.
 * If another app of the same shard in this JVM already holds the name (tests run two instances
 * in one JVM), this one stays unregistered and says so; closing only removes what it registered.
 */
public final class ShardJmx implements AutoCloseable {
    /** The JMX domain of every mvsink MBean. */
    public static final String DOMAIN = "io.mvsink";
    private static final Logger LOG = LoggerFactory.getLogger(ShardJmx.class);

    private final MBeanServer server;
    private final ObjectName name;
    private boolean registered;

    private ShardJmx(MBeanServer server, ObjectName name, boolean registered) {
        this.server = server;
        this.name = name;
        this.registered = registered;
    }

    /** The ObjectName of {@code shard}'s MBean; the value is quoted when it holds special characters. */
    public static ObjectName objectName(String shard) {
        String value = shard.matches("[A-Za-z0-9_.\\-]+") ? shard : ObjectName.quote(shard);
        try {
            return new ObjectName(DOMAIN + ":type=shard,shard=" + value);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("shard name " + shard + " makes no JMX ObjectName", e);
        }
    }

    /** Registers {@code bean} for {@code shard} with the platform MBean server. */
    public static ShardJmx register(String shard, ShardMBean bean) {
        return register(ManagementFactory.getPlatformMBeanServer(), shard, bean);
    }

    public static ShardJmx register(MBeanServer server, String shard, ShardMBean bean) {
        ObjectName name = objectName(shard);
        try {
            server.registerMBean(bean, name);
            return new ShardJmx(server, name, true);
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("shard {}: {} is already registered by another app of this shard in this JVM; "
                + "this app's metrics are not exposed over JMX", shard, name);
            return new ShardJmx(server, name, false);
        } catch (JMException e) {
            throw new IllegalStateException("shard " + shard + ": cannot register " + name, e);
        }
    }

    public ObjectName name() {
        return name;
    }

    @Override
    public synchronized void close() {
        if (!registered) {
            return;
        }
        registered = false;
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            LOG.debug("{} was already unregistered", name);
        } catch (JMException e) {
            LOG.warn("cannot unregister {}", name, e);
        }
    }
}
