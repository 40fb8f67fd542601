package io.mvsink.local;

import io.mvsink.local.LocalStackOptions.Component;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The integration tests' stack: Apicurio and Azurite as processes (started by
 * {@link LocalStackLauncher} on a helper thread) while the Kafka broker starts in this JVM.
 */
final class TestStack implements LocalStack {

    private final TestBroker broker;
    private final LocalStack services;

    private TestStack(TestBroker broker, LocalStack services) {
        this.broker = broker;
        this.services = services;
    }

    static TestStack start() {
        long startedAt = System.nanoTime();
        ExecutorService helper = Executors.newSingleThreadExecutor(
                new NamedThreadFactory("mvsink-test-stack-start"));
        try {
            CompletableFuture<LocalStack> services = CompletableFuture.supplyAsync(
                    () -> LocalStackLauncher.start(LocalStackOptions.defaults()
                            .withComponents(EnumSet.of(Component.REGISTRY, Component.BLOB))
                            .withVerbose(true)), helper);
            TestBroker broker;
            try {
                broker = TestBroker.start();
            } catch (RuntimeException e) {
                services.thenAccept(LocalStack::close);
                throw e;
            }
            System.err.printf("local stack: in-JVM kafka ready on %s (%.1f s)%n",
                    broker.bootstrapServers(), (System.nanoTime() - startedAt) / 1e9);
            try {
                return new TestStack(broker, services.join());
            } catch (CompletionException e) {
                broker.close();
                throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
            }
        } finally {
            helper.shutdown();
        }
    }

    TestBroker broker() {
        return broker;
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public String registryUrl() {
        return services.registryUrl();
    }

    @Override
    public String blobConnectionString() {
        return services.blobConnectionString();
    }

    @Override
    public void close() {
        try {
            services.close();
        } finally {
            broker.close();
        }
    }
}
