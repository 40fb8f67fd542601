package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.topology.DeadLetterReason;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

public class PrometheusTextTest {
    /** A sample line of the text format: name, optional labels, value. */
    static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");

    @Test
    void shouldExposeEveryShardMetricTypedAndEveryNumericKafkaMetric() {
        ShardMetrics m = new ShardMetrics("orders");
        m.update();
        m.update();
        m.partWritten(100);
        m.sealProgress().observed(0, 5_000, 7_000, 1);
        try (ShardMetricSet set = ShardMetricSet.create(m, new BuilderGauges(() -> 3, () -> 1, () -> 3, () -> 1),
                 DeadLetterReason.ALL, new MockTime(), List.of());
             Metrics kafka = new Metrics()) {
            m.appended(1, 1, 1, 10, 40);
            Sensor records = kafka.sensor("records");
            records.add(kafka.metricName("process-total", "stream-thread-metrics", "records processed",
                Map.of("thread-id", "t-1")), new CumulativeSum());
            records.add(kafka.metricName("process-latency", "stream-thread-metrics", "latest", Map.of("thread-id", "t-1")),
                new Value());
            records.record(4);

            String text = PrometheusText.render(set.metrics(), kafka.metrics());
            Map<String, String> types = types(text);
            Map<String, Double> samples = samples(text, types);

            assertEquals("counter", types.get("mvsink_updates_total"));
            assertEquals(2.0, samples.get("mvsink_updates_total{shard=\"orders\"}"));
            assertEquals(1.0, samples.get("mvsink_blob_puts_total{shard=\"orders\"}"));
            assertEquals("gauge", types.get("mvsink_sealed_upper"));
            assertEquals(5_000.0, samples.get("mvsink_sealed_upper{shard=\"orders\"}"));
            assertEquals(2_000.0, samples.get("mvsink_frontier_lag_ms{shard=\"orders\"}"));
            assertEquals(3.0, samples.get("mvsink_builder_queued_bytes{shard=\"orders\"}"));
            assertEquals("gauge", types.get("mvsink_seal_latency_p99"));
            assertEquals(40.0, samples.get("mvsink_seal_latency_max{shard=\"orders\"}"));
            assertEquals("counter", types.get("mvsink_dead_lettered_bad_magic_total"));
            assertEquals("counter", types.get("kafka_stream_thread_metrics_process_total"));
            assertEquals(4.0, samples.get("kafka_stream_thread_metrics_process_total{thread_id=\"t-1\"}"));
            assertEquals("gauge", types.get("kafka_stream_thread_metrics_process_latency"));
            assertEquals(set.metrics().size(), types.keySet().stream().filter(n -> n.startsWith("mvsink_")).count(),
                "every shard metric, once");
            assertEquals(0, types.keySet().stream().filter(n -> n.startsWith("mvsink_") && !n.endsWith("_total")
                && types.get(n).equals("counter")).count(), "only totals are counters");
        }
    }

    @Test
    void shouldLeaveOutAWindowedStatisticWithoutSamples() {
        try (ShardMetricSet set = ShardMetricSet.create(new ShardMetrics("s"), BuilderGauges.fixed(0, 0), List.of(),
                 new MockTime(), List.of())) {
            Map<String, String> types = types(PrometheusText.render(set.metrics(), Map.of()));
            assertTrue(types.containsKey("mvsink_appends_total"));
            assertFalse(types.containsKey("mvsink_seal_latency_p99"), "NaN before the first seal is not a sample");
        }
    }

    @Test
    void shouldSpellKebabCaseAsSnakeCase() {
        assertEquals("seal_latency_p99", PrometheusText.clean("seal-latency-p99"));
        assertEquals("a_b_c", PrometheusText.clean("a-b.c"));
    }

    /** The family types declared by {@code # TYPE}, each family declared once. */
    public static Map<String, String> types(String text) {
        Map<String, String> types = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                assertEquals(null, types.put(parts[2], parts[3]), "family " + parts[2] + " declared twice");
            }
        }
        return types;
    }

    /** Every sample by its name and labels; each belongs to a declared family and parses. */
    public static Map<String, Double> samples(String text, Map<String, String> types) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            assertTrue(types.containsKey(m.group(1)), "sample of an undeclared family: " + line);
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(4)));
        }
        return samples;
    }
}
