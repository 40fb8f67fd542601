package io.mvsink.bench;

import io.mvsink.metrics.ShardJmx;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Reads a child mvsink's shard MBean over remote JMX on 127.0.0.1 (no authentication, local
 * only): the app's own metrics, e.g. {@code blob-puts-total} (Kafka's JMX reporter answers each as a
 * Double). Read once, just before the child stops.
 */
final class RemoteShardMetrics {
    private RemoteShardMetrics() {
    }

    /** The JVM options that open remote JMX on {@code port} of 127.0.0.1 only. */
    static List<String> jvmOptions(int port) {
        return List.of("-Dcom.sun.management.jmxremote.port=" + port,
            "-Dcom.sun.management.jmxremote.rmi.port=" + port,
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false");
    }

    /** Every attribute of {@code shard}'s MBean in the JVM listening on {@code port}. */
    static Map<String, Object> read(int port, String shard) {
        Map<String, Object> values = new LinkedHashMap<>();
        try (JMXConnector connector = JMXConnectorFactory.connect(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            ObjectName name = ShardJmx.objectName(shard);
            String[] attributes = Arrays.stream(server.getMBeanInfo(name).getAttributes())
                .map(MBeanAttributeInfo::getName).toArray(String[]::new);
            for (Attribute attribute : server.getAttributes(name, attributes).asList()) {
                values.put(attribute.getName(), attribute.getValue());
            }
        } catch (IOException | JMException e) {
            System.err.println("bench: cannot read the JMX metrics of shard " + shard + " on port " + port + ": " + e);
        }
        return values;
    }
}
