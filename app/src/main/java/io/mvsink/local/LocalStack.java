package io.mvsink.local;

/**
 * The local stack of the demo and the integration tests: a Kafka broker (KRaft), Apicurio
 * Registry and Azurite, each its own process bound to 127.0.0.1, started and waited for
 * until ready, and stopped by {@link #close()} (and by a shutdown hook, even after a failure).
 * See {@code LocalStackLauncher} for how they are started.
 */
public interface LocalStack extends AutoCloseable {

    /** {@code host:port} of the broker. */
    String bootstrapServers();

    /** Base URL of the Confluent-compatible API, e.g. {@code http://127.0.0.1:8081/apis/ccompat/v7}. */
    String registryUrl();

    /** Azure Storage connection string of Azurite's blob endpoint (dev account). */
    String blobConnectionString();

    @Override
    void close();
}
