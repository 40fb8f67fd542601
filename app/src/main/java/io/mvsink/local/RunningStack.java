package io.mvsink.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The stack {@link LocalStackLauncher} started: its components and its work dir. */
final class RunningStack implements LocalStack {

    private static final Logger log = LoggerFactory.getLogger(RunningStack.class);

    private final KafkaBrokerProcess kafka;
    private final ApicurioProcess registry;
    private final AzuriteProcess blob;
    private final Path workDir;
    private final boolean deleteWorkDir;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook = new Thread(this::close, "mvsink-stop-local-stack");

    RunningStack(KafkaBrokerProcess kafka, ApicurioProcess registry, AzuriteProcess blob,
                 Path workDir, boolean deleteWorkDir) {
        this.kafka = kafka;
        this.registry = registry;
        this.blob = blob;
        this.workDir = workDir;
        this.deleteWorkDir = deleteWorkDir;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The components that were asked for, in start order. */
    List<StackComponent> components() {
        List<StackComponent> all = new ArrayList<>();
        Stream.of(kafka, registry, blob).filter(c -> c != null).forEach(all::add);
        return all;
    }

    @Override
    public String bootstrapServers() {
        return require(kafka, "KAFKA").bootstrapServers();
    }

    @Override
    public String registryUrl() {
        return require(registry, "REGISTRY").registryUrl();
    }

    @Override
    public String blobConnectionString() {
        return require(blob, "BLOB").connectionString();
    }

    Path workDir() {
        return workDir;
    }

    /** Stops every component (each waits a bounded time), then deletes a temporary work dir. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down, possibly in this very hook
        }
        List<StackComponent> all = components();
        for (int i = all.size() - 1; i >= 0; i--) {
            try {
                all.get(i).stop();
            } catch (RuntimeException e) {
                log.warn("local stack: could not stop {}", all.get(i).name(), e);
            }
        }
        if (deleteWorkDir) {
            deleteRecursively(workDir);
        }
    }

    private static <T> T require(T component, String name) {
        if (component == null) {
            throw new IllegalStateException("this local stack was started without " + name
                    + " (see LocalStackOptions.withComponents)");
        }
        return component;
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | RuntimeException e) {
            log.warn("local stack: could not delete work dir {}", dir, e);
        }
    }
}
