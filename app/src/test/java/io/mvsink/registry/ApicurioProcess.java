package io.mvsink.registry;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Apicurio Registry (in-memory storage) in a child JVM for integration tests, found at
 * {@code ${mvsink.stack.dir}/target/apicurio}. Started on a free port, ready once the ccompat
 * API lists subjects, destroyed with its descendants on close.
 */
final class ApicurioProcess implements AutoCloseable {
    static final String RUNNER = "target/apicurio/apicurio-registry-app-2.6.13.Final-runner.jar";
    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final Process process;
    private final Path workDir;
    private final Path log;
    private final int port;

    private ApicurioProcess(Process process, Path workDir, Path log, int port) {
        this.process = process;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
    }

    /** Starts the registry and waits until it answers. */
    static ApicurioProcess start() throws IOException {
        String stackDir = System.getProperty("mvsink.stack.dir", "../local-stack");
        Path jar = Path.of(stackDir, RUNNER).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no Apicurio runner at " + jar + ": run mvn -pl local-stack install first");
        }
        int port = freePort();
        Path workDir = Files.createTempDirectory("apicurio-it");
        Path log = workDir.resolve("apicurio.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx512m", "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port, "-jar", jar.toString())
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ApicurioProcess apicurio = new ApicurioProcess(process, workDir, log, port);
        apicurio.awaitReady();
        return apicurio;
    }

    /** The Confluent-compatible API root of this registry. */
    String ccompatUrl() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(ccompatUrl() + "/subjects"))
                .timeout(Duration.ofSeconds(2)).build();
        try {
            await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).ignoreExceptionsMatching(e -> e instanceof IOException)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("Apicurio exited with " + process.exitValue() + ":\n" + output());
                        }
                        return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    });
        } catch (ConditionTimeoutException | IllegalStateException e) {
            String output = output();
            close();
            throw new IllegalStateException("Apicurio not ready on port " + port + " within " + STARTUP + ":\n" + output, e);
        }
    }

    private String output() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + workDir, e);
        }
    }
}
