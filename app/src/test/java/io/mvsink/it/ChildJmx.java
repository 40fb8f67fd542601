package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** Remote JMX into a {@link ChildApp}: the JVM options that open its agent on a port, and a connection to it. */
final class ChildJmx {
    private ChildJmx() {
    }

    static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** JVM options of the child: the JVM's own remote JMX agent on {@code port}, no auth, no TLS, loopback. */
    static List<String> agentOptions(int port) {
        return List.of(
            "-Dcom.sun.management.jmxremote.port=" + port,
            "-Dcom.sun.management.jmxremote.rmi.port=" + port,
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false",
            "-Djava.rmi.server.hostname=127.0.0.1");
    }

    /** One attempt to connect to the agent on {@code port}. */
    static JMXConnector connect(int port) throws Exception {
        return JMXConnectorFactory.connect(
            new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"));
    }

    /** Connects to the agent of {@code child}, waiting up to 60 s for it to listen (failing if the child exits). */
    static JMXConnector connect(int port, Process child) {
        JMXConnector[] connector = new JMXConnector[1];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            assertTrue(child.isAlive(), "mvsink run exited with " + (child.isAlive() ? "" : child.exitValue()));
            connector[0] = connect(port);
            return true;
        });
        return connector[0];
    }

    /** A metric of the shard MBean as a long (Kafka's JMX reporter answers every value as a Double). */
    static long get(MBeanServerConnection server, ObjectName name, String attribute) throws Exception {
        return ((Number) server.getAttribute(name, attribute)).longValue();
    }
}
