package io.mvsink.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A standalone KRaft broker (combined broker and controller, node 1) in its own JVM, from the
 * classpath the build wrote. Formats its log dir as a single-node dynamic quorum
 * ({@code StorageTool format --standalone}), then runs {@code kafka.Kafka server.properties}.
 */
final class KafkaBrokerProcess implements StackComponent {

    private static final String HOST = "127.0.0.1";
    private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final StackLayout layout;
    private final Path workDir;
    private final Time time;
    private final int port;
    private final int controllerPort;
    /** The format tool, then the broker: whichever {@link #stop()} must end. */
    private volatile ManagedProcess current;
    private volatile boolean stopped;

    KafkaBrokerProcess(StackLayout layout, Path workDir, Time time) {
        this.layout = layout;
        this.workDir = workDir.resolve("kafka");
        this.time = time;
        int[] ports = FreePorts.pick(2);
        this.port = ports[0];
        this.controllerPort = ports[1];
    }

    /**
     * Broker settings that make exactly-once Kafka Streams work on one broker: every internal
     * topic with replication factor 1 and min ISR 1, few partitions so they are created fast,
     * and no delay before the first rebalance. The in-JVM test broker uses them too.
     */
    static Map<String, String> singleBrokerOverrides() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "4");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "4");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("num.partitions", "1");
        return props;
    }

    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public String address() {
        return HOST + ":" + port;
    }

    String bootstrapServers() {
        return address();
    }

    @Override
    public void start(Duration timeout) {
        String classpath = layout.brokerClasspath();
        Path config = writeServerProperties();
        List<String> format = javaCommand(classpath, "-Xmx256m");
        format.addAll(List.of("kafka.tools.StorageTool", "format", "--config", config.toString(),
                "--cluster-id", Uuid.randomUuid().toString(), "--standalone"));
        run(new ManagedProcess("kafka-format", format, workDir, workDir.resolve("format.log"),
                STOP_GRACE, time), null, FORMAT_TIMEOUT);
        startServer(timeout);
    }

    /**
     * Starts the broker again after {@link #stop()} or {@link #kill()}, on the same ports and
     * with the same data (not formatted again): what a restarted broker machine does.
     */
    void restart(Duration timeout) {
        stopped = false;
        startServer(timeout);
    }

    /** Ends the broker at once (SIGKILL, no clean shutdown), as a crash would. */
    void kill() {
        stopped = true;
        ManagedProcess running = current;
        if (running != null) {
            running.kill();
        }
    }

    private void startServer(Duration timeout) {
        String classpath = layout.brokerClasspath();
        Path config = workDir.resolve("server.properties");
        List<String> server = javaCommand(classpath, "-Xmx512m");
        server.addAll(List.of("kafka.Kafka", config.toString()));
        run(new ManagedProcess("kafka", server, workDir, workDir.resolve("kafka.log"),
                STOP_GRACE, time), this::clusterAnswers, timeout);
    }

    @Override
    public void stop() {
        stopped = true;
        ManagedProcess running = current;
        if (running != null) {
            running.stop();
        }
    }

    /**
     * Publishes {@code process} before reading {@code stopped}, while {@link #stop()} writes
     * {@code stopped} before reading {@code current}: one of the two sees the other.
     */
    private void run(ManagedProcess process, ManagedProcess.ReadinessCheck check, Duration timeout) {
        current = process;
        if (stopped) {
            throw new LocalStackException("kafka was stopped before it started");
        }
        if (check == null) {
            process.runToCompletion(timeout);
        } else {
            process.start(check, timeout);
        }
    }

    private boolean clusterAnswers() throws Exception {
        if (!Probes.tcpOpen(HOST, port)) {
            return false;
        }
        Map<String, Object> config = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        try (Admin admin = Admin.create(config)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
        }
    }

    private List<String> javaCommand(String classpath, String heap) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(heap, "-Xms64m", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dlog4j2.configurationFile=" + writeLog4jConfig(),
                "-cp", classpath));
        return command;
    }

    private Path writeServerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("controller.quorum.bootstrap.servers", HOST + ":" + controllerPort);
        props.put("log.dirs", workDir.resolve("data").toString());
        props.putAll(singleBrokerOverrides());
        StringBuilder text = new StringBuilder("# written by mvsink's local stack\n");
        props.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return write("server.properties", text.toString());
    }

    /** Kafka itself logs through SLF4J; this keeps any direct log4j2 use quiet too. */
    private Path writeLog4jConfig() {
        return write("log4j2.properties", "status = error\nrootLogger.level = warn\n"
                + "rootLogger.appenderRef.stdout.ref = STDOUT\nappender.stdout.type = Console\n"
                + "appender.stdout.name = STDOUT\nappender.stdout.layout.type = PatternLayout\n"
                + "appender.stdout.layout.pattern = [%d] %p %m (%c)%n\n");
    }

    private Path write(String fileName, String text) {
        try {
            Files.createDirectories(workDir);
            return Files.writeString(workDir.resolve(fileName), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LocalStackException("could not write " + fileName + " in " + workDir, e);
        }
    }
}
