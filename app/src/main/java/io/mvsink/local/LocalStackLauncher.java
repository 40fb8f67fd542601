package io.mvsink.local;

import io.mvsink.local.LocalStackOptions.Component;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;

/**
 * Starts the local stack: the Kafka broker, Apicurio Registry and Azurite, each a child process
 * on free ports of 127.0.0.1, started in parallel. If one fails, all are stopped and the error
 * names the component and ends with the tail of its log.
 */
public final class LocalStackLauncher {

    private static final Duration POOL_SHUTDOWN = Duration.ofSeconds(30);

    private LocalStackLauncher() {
    }

    /** Starts the stack with {@link LocalStackOptions#defaults()}. */
    public static LocalStack start() {
        return start(LocalStackOptions.defaults());
    }

    /**
     * Starts the components the options ask for and returns once all serve clients.
     *
     * @throws LocalStackException if the stack dir is not found or not built, or a component
     *                             does not become ready in time; nothing is left running then
     */
    public static LocalStack start(LocalStackOptions options) {
        return start(options, Time.SYSTEM);
    }

    static RunningStack start(LocalStackOptions options, Time time) {
        StackLayout layout = new StackLayout(StackDirResolver.resolve(options.stackDir(),
                Optional.ofNullable(System.getProperty(StackDirResolver.PROPERTY)),
                Path.of("").toAbsolutePath(), StackDirResolver.codeLocation()));
        layout.requireBuilt(options.components());
        Path workDir = options.workDir().orElseGet(LocalStackLauncher::temporaryWorkDir);
        RunningStack stack = new RunningStack(
                options.components().contains(Component.KAFKA) ? new KafkaBrokerProcess(layout, workDir, time) : null,
                options.components().contains(Component.REGISTRY) ? new ApicurioProcess(layout, workDir, time) : null,
                options.components().contains(Component.BLOB) ? new AzuriteProcess(layout, workDir, time) : null,
                workDir, options.workDir().isEmpty());
        try {
            startAll(stack, options, time);
            return stack;
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    /**
     * Starts every component on its own thread of a pool as large as the stack. The first
     * failure closes the stack at once, so the others stop waiting for readiness and fail fast
     * with "stopped while starting"; those failures are attached as suppressed.
     */
    private static void startAll(RunningStack stack, LocalStackOptions options, Time time) {
        List<StackComponent> components = stack.components();
        ExecutorService pool = Executors.newFixedThreadPool(components.size(),
                new NamedThreadFactory("mvsink-local-stack-start"));
        CompletionService<StackComponent> done = new ExecutorCompletionService<>(pool);
        long startedAt = time.milliseconds();
        for (StackComponent component : components) {
            done.submit(() -> {
                component.start(options.startTimeout());
                return component;
            });
        }
        LocalStackException failure = null;
        try {
            for (int i = 0; i < components.size(); i++) {
                Future<StackComponent> next = done.take();
                try {
                    StackComponent ready = next.get();
                    if (options.verbose()) {
                        System.err.printf("local stack: %s ready on %s (%.1f s)%n", ready.name(),
                                ready.address(), (time.milliseconds() - startedAt) / 1000.0);
                    }
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = new LocalStackException("the local stack did not start: "
                                + e.getCause().getMessage(), e.getCause());
                        stack.close();
                    } else {
                        failure.addSuppressed(e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new LocalStackException("interrupted while starting the local stack", e);
        } finally {
            shutdown(pool);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void shutdown(ExecutorService pool) {
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(POOL_SHUTDOWN.toSeconds(), TimeUnit.SECONDS)) {
                System.err.println("local stack: start threads still running after "
                        + POOL_SHUTDOWN.toSeconds() + " s; abandoning them (they are daemons)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path temporaryWorkDir() {
        try {
            return Files.createTempDirectory("mvsink-local-stack-");
        } catch (IOException e) {
            throw new LocalStackException("could not create a temporary work dir for the local stack", e);
        }
    }
}
