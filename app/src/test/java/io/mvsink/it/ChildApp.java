package io.mvsink.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code mvsink run} of a harness's shard in its own JVM, on this test's classpath. */
final class ChildApp implements AutoCloseable {
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
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmOptions);
        command.addAll(List.of("io.mvsink.cli.Main", "run"));
        command.addAll(sink.cliArgs());
        command.addAll(extraArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ChildApp(process, log);
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
