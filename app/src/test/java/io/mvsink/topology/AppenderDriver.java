package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** The sink topology of one shard in a TopologyTestDriver, for the appender's tests: reports in, consensus out. */
final class AppenderDriver implements AutoCloseable {
    final TopologyTestDriver driver;
    final TestInputTopic<byte[], byte[]> reports;
    final TestOutputTopic<byte[], byte[]> consensus;

    AppenderDriver(SinkContext sink) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(SinkTopology.build(new SinkTopology.Topics("c", "r", "k", "d"), sink), props);
        reports = driver.createInputTopic("r", new ByteArraySerializer(), new ByteArraySerializer());
        consensus = driver.createOutputTopic("k", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Pipes in the report of {@code batch}, as a task of shard {@code s} would send it. */
    void report(Batch batch) {
        reports.pipeInput(new TestRecord<>("s".getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(batch, "test"))));
    }

    @Override
    public void close() {
        driver.close();
    }
}
