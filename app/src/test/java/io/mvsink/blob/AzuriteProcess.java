package io.mvsink.blob;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Azurite blob service (in-memory) for integration tests, from
 * {@code ${mvsink.stack.dir}/node_modules/.bin/azurite-blob}. Started on a free port, ready once
 * the port accepts connections, destroyed with its descendants (node) on close.
 */
final class AzuriteProcess implements AutoCloseable {
    static final String ACCOUNT_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final Process process;
    private final Path workDir;
    private final Path log;
    private final int port;

    private AzuriteProcess(Process process, Path workDir, Path log, int port) {
        this.process = process;
        this.workDir = workDir;
        this.log = log;
        this.port = port;
    }

    /** Starts Azurite and waits until it listens. */
    static AzuriteProcess start() throws IOException {
        Path bin = Path.of(System.getProperty("mvsink.stack.dir", "../local-stack"), "node_modules/.bin/azurite-blob")
                .toAbsolutePath();
        if (!Files.isExecutable(bin)) {
            throw new IllegalStateException("no Azurite at " + bin + ": run mvn -pl local-stack install first");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path workDir = Files.createTempDirectory("azurite-it");
        Path log = workDir.resolve("azurite.log");
        Process process = new ProcessBuilder(bin.toString(), "--blobHost", "127.0.0.1", "--blobPort", String.valueOf(port),
                // Azurite refuses --location together with --inMemoryPersistence: the working dir is enough.
                "--inMemoryPersistence", "--skipApiVersionCheck", "--loose")
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        AzuriteProcess azurite = new AzuriteProcess(process, workDir, log, port);
        azurite.awaitListening();
        return azurite;
    }

    /** A connection string for the dev account of this Azurite. */
    String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + ACCOUNT_KEY
                + ";BlobEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;";
    }

    private void awaitListening() {
        try {
            await().atMost(STARTUP).pollInterval(Duration.ofMillis(200)).ignoreExceptionsMatching(e -> e instanceof IOException)
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("Azurite exited with " + process.exitValue() + ":\n" + output());
                        }
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                            return true;
                        }
                    });
        } catch (ConditionTimeoutException | IllegalStateException e) {
            String output = output();
            close();
            throw new IllegalStateException("Azurite not listening on port " + port + " within " + STARTUP + ":\n" + output, e);
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

    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            // best effort: a temp dir left behind does no harm
        }
    }
}
