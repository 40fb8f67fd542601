package io.mvsink.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.utils.Time;

/**
 * A Kafka broker of its own, as a separate process (the demo's KRaft broker), for tests that
 * stop, kill and restart it while an app runs: unlike the shared test broker, its faults touch
 * no other test. Same ports and data across restarts. Also a second Kafka cluster (its own cluster
 * id) for tests of two clusters sharing one storage container: {@link #over}.
 */
public final class BrokerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final KafkaBrokerProcess process;

    private BrokerProcess(KafkaBrokerProcess process) {
        this.process = process;
    }

    /** Formats and starts a broker in a fresh temporary directory. */
    public static BrokerProcess start() {
        StackLayout layout = new StackLayout(StackDirResolver.resolve(Optional.empty(),
            Optional.ofNullable(System.getProperty(StackDirResolver.PROPERTY)), Path.of("").toAbsolutePath(),
            StackDirResolver.codeLocation()));
        try {
            KafkaBrokerProcess process = new KafkaBrokerProcess(layout,
                Files.createTempDirectory("mvsink-broker-process"), Time.SYSTEM);
            process.start(START_TIMEOUT);
            return new BrokerProcess(process);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String bootstrapServers() {
        return process.bootstrapServers();
    }

    /**
     * {@code shared}'s registry and blob storage with this broker as the Kafka cluster: another
     * cluster next to the shared test broker (closing it closes nothing; close this broker).
     */
    public LocalStack over(LocalStack shared) {
        return new LocalStack() {
            @Override
            public String bootstrapServers() {
                return BrokerProcess.this.bootstrapServers();
            }

            @Override
            public String registryUrl() {
                return shared.registryUrl();
            }

            @Override
            public String blobConnectionString() {
                return shared.blobConnectionString();
            }

            @Override
            public void close() {
            }
        };
    }

    /** Stops the broker gracefully (SIGTERM, controlled shutdown). */
    public void stop() {
        process.stop();
    }

    /** Kills the broker (SIGKILL): no controlled shutdown, the log is recovered on restart. */
    public void kill() {
        process.kill();
    }

    /** Starts it again on the same ports and data; returns once it answers. */
    public void restart() {
        process.restart(START_TIMEOUT);
    }

    @Override
    public void close() {
        process.stop();
    }
}
