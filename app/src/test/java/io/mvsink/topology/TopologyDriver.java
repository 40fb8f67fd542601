package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.codec.Codecs;
import io.mvsink.protocol.BatchCoalescer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The sink's topology in a {@link TopologyTestDriver} over topics {@code c} (corrections),
 * {@code r} (reports), {@code k} (consensus) and {@code d} (dead letters), with reports piped in
 * directly: the shared fixture of the appender's tests.
 */
final class TopologyDriver implements AutoCloseable {
    final TopologyTestDriver driver;
    final TestInputTopic<byte[], byte[]> reports;
    final TestOutputTopic<byte[], byte[]> consensus;

    /** This driver's own state directory: JVMs of other test runs on the machine use the default one. */
    private final Path stateDir;
    /** The batch coalescer {@link #close} closes too, or null if the test closes it. */
    private BatchCoalescer owned;

    TopologyDriver(SinkContext sink) {
        try {
            stateDir = Files.createTempDirectory("mvsink-topology-driver");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(SinkTopology.build(new SinkTopology.Topics("c", "r", "k", "d"), sink), props);
        reports = driver.createInputTopic("r", new ByteArraySerializer(), new ByteArraySerializer());
        consensus = driver.createOutputTopic("k", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Reports {@code batch} for shard {@code s} as a task reports a batch of an earlier version (no first write time). */
    void report(Batch batch) {
        report(batch, "test", 0L);
    }

    /** Reports {@code batch} for shard {@code s} as task {@code reporter} would. */
    void report(Batch batch, String reporter, long firstWriteAtMs) {
        reports.pipeInput(new TestRecord<>("s".getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(batch, reporter, firstWriteAtMs))));
    }

    /** A driver that closes its sink's batch coalescer when it closes. */
    static TopologyDriver owningBatches(SinkContext sink) {
        TopologyDriver topology = new TopologyDriver(sink);
        topology.owned = sink.batches();
        return topology;
    }

    @Override
    public void close() {
        driver.close();
        if (owned != null) {
            owned.close();
        }
        try {
            Utils.delete(stateDir.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
