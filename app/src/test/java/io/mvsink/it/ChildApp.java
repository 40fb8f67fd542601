package io.mvsink.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code mvsink run} of a harness's shard in its own JVM, on this test's classpath: it logs as
 * logback-test.xml says (WARN), or at the levels of {@link #logLevels}.
 */
final class ChildApp implements AutoCloseable {
    /** The library loggers the shipped logback.xml quiets (see there why). */
    private static final Map<String, String> QUIETED = Map.of(
        "org.apache.kafka.clients.producer.internals.Sender", "ERROR",
        "org.apache.kafka.streams.processor.internals.StateDirectory", "ERROR",
        "org.apache.kafka.streams.StreamsConfig", "ERROR",
        "reactor.core.publisher.Operators", "OFF",
        "com.azure", "OFF");

    private final Process process;
    private final Path log;
    private volatile long endedAtMs;

    private ChildApp(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildApp start(SinkHarness sink, String tag, List<String> jvmOptions, List<String> extraArgs) throws Exception {
        Path log = Files.createDirectories(Path.of("target", "child-apps")).resolve(sink.name + "-" + tag + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        command.addAll(jvmOptions);
        command.addAll(List.of("io.mvsink.cli.Main", "run"));
        command.addAll(sink.cliArgs());
        command.addAll(extraArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ChildApp(process, log);
    }

    /**
     * The JVM option that has a child log at these levels (logger name to level), the shipped
     * library overrides and WARN elsewhere, in the shipped text layout: a logback configuration of its
     * own under target/child-apps.
     */
    static String logLevels(Map<String, String> levels) {
        StringBuilder xml = new StringBuilder("<configuration>\n"
            + "  <statusListener class=\"ch.qos.logback.core.status.NopStatusListener\"/>\n"
            + "  <appender name=\"text\" class=\"ch.qos.logback.core.ConsoleAppender\">\n"
            + "    <target>System.err</target>\n"
            + "    <encoder><pattern>%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} [%thread] %-5level %logger{0}"
            + "%replace( shard %X{shard}){' shard $', ''} - %msg%n</pattern></encoder>\n"
            + "  </appender>\n");
        Map<String, String> all = new LinkedHashMap<>(QUIETED);
        all.putAll(levels);
        all.forEach((logger, level) -> xml.append("  <logger name=\"").append(logger).append("\" level=\"")
            .append(level).append("\"/>\n"));
        xml.append("  <root level=\"WARN\"><appender-ref ref=\"text\"/></root>\n</configuration>\n");
        try {
            Path dir = Files.createDirectories(Path.of("target", "child-apps"));
            Path file = Files.writeString(Files.createTempFile(dir, "logback-", ".xml"), xml);
            return "-Dlogback.configurationFile=" + file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The JVM options that have a child log as the jar does, with the jar's own logback.xml (not
     * logback-test.xml, which comes first on this classpath), in {@code format} (text or json).
     */
    static List<String> shippedLogging(String format) {
        // a URL: in a file under target/classes, or in the jar under failsafe
        return List.of("-Dlogback.configurationFile=" + ChildApp.class.getResource("/logback.xml"),
            "-DMVSINK_LOG_FORMAT=" + format);
    }

    Process process() {
        return process;
    }

    String log() throws Exception {
        return Files.readString(log);
    }

    Path logFile() {
        return log;
    }

    /** Wall-clock time at which the fleet killed or stopped it; 0 while it runs. */
    long endedAtMs() {
        return endedAtMs;
    }

    /** Sends SIGTERM and waits up to {@code timeout}; true if the process ended in time. */
    boolean terminate(Duration timeout) throws Exception {
        process.destroy();
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        endedAtMs = System.currentTimeMillis();
        return ended;
    }

    /** Sends SIGKILL (kill -9: no shutdown hook, nothing committed or closed) and waits until the process is gone. */
    void kill() throws Exception {
        process.destroyForcibly();
        endedAtMs = System.currentTimeMillis();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("mvsink run (pid " + process.pid() + ") survived SIGKILL for 30 s");
        }
    }

    @Override
    public void close() throws Exception {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
