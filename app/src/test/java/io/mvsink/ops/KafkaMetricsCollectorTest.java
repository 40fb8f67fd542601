package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.topology.DeadLetterReason;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

/** What /metrics makes of the shard's and Kafka's metrics registries, and of the seal latency. */
class KafkaMetricsCollectorTest {
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

            String text = ExpositionText.render(ScrapeRegistry.of(m, set::metrics, kafka::metrics));
            Map<String, String> types = ExpositionText.types(text);
            Map<String, Double> samples = ExpositionText.samples(text, types);

            assertEquals("counter", types.get("mvsink_updates_total"));
            assertEquals(2.0, samples.get("mvsink_updates_total{shard=\"orders\"}"));
            assertEquals(1.0, samples.get("mvsink_blob_puts_total{shard=\"orders\"}"));
            assertEquals("gauge", types.get("mvsink_sealed_upper"));
            assertEquals(5_000.0, samples.get("mvsink_sealed_upper{shard=\"orders\"}"));
            assertEquals(2_000.0, samples.get("mvsink_frontier_lag_ms{shard=\"orders\"}"));
            assertEquals(2.0, samples.get("mvsink_frontier_lag_seconds{shard=\"orders\"}"), "the base unit too");
            assertEquals(3.0, samples.get("mvsink_builder_queued_bytes{shard=\"orders\"}"));
            assertEquals("gauge", types.get("mvsink_seal_latency_p99"));
            assertEquals(40.0, samples.get("mvsink_seal_latency_max{shard=\"orders\"}"));
            assertEquals("counter", types.get("mvsink_dead_lettered_bad_magic_total"));
            assertEquals("counter", types.get("kafka_stream_thread_metrics_process_total"));
            assertEquals(4.0, samples.get("kafka_stream_thread_metrics_process_total{thread_id=\"t-1\"}"));
            assertEquals("gauge", types.get("kafka_stream_thread_metrics_process_latency"));
            assertEquals(set.metrics().size(), types.keySet().stream().filter(n -> n.startsWith("mvsink_")
                && !n.endsWith("_seconds")).count(), "every shard metric, once");
            assertEquals(0, types.keySet().stream().filter(n -> n.startsWith("mvsink_") && !n.endsWith("_total")
                && types.get(n).equals("counter")).count(), "only totals are counters");
            assertEquals("counter", types.get("process_cpu_seconds_total"), "the process's metrics");
            assertEquals("gauge", types.get("jvm_memory_used_bytes"), "the JVM's metrics");
        }
    }

    @Test
    void shouldServeTheSealLatencyAsAHistogramInSeconds() {
        ShardMetrics m = new ShardMetrics("orders");
        m.appended(1, 1, 1, 10, 40);
        m.appended(1, 1, 1, 10, 700);
        m.appended(1, 1, 1, 10, 90_000);
        m.appended(1, 1, 1, 10, 7_200_000);
        String text = ExpositionText.render(ScrapeRegistry.of(m, Map::of, Map::of));
        Map<String, String> types = ExpositionText.types(text);
        Map<String, Double> samples = ExpositionText.samples(text, types);

        assertEquals("histogram", types.get(ScrapeRegistry.SEAL_LATENCY));
        String bucket = ScrapeRegistry.SEAL_LATENCY + "_bucket{shard=\"orders\",le=\"";
        assertEquals(1.0, samples.get(bucket + "0.05\"}"), "40 ms");
        assertEquals(1.0, samples.get(bucket + "0.5\"}"));
        assertEquals(2.0, samples.get(bucket + "1.0\"}"), "700 ms");
        assertEquals(2.0, samples.get(bucket + "60.0\"}"));
        assertEquals(3.0, samples.get(bucket + "120.0\"}"), "90 s");
        assertEquals(3.0, samples.get(bucket + "1800.0\"}"));
        assertEquals(4.0, samples.get(bucket + "+Inf\"}"), "2 h, above every bound");
        assertEquals(4.0, samples.get(ScrapeRegistry.SEAL_LATENCY + "_count{shard=\"orders\"}"));
        assertEquals(7_290.74, samples.get(ScrapeRegistry.SEAL_LATENCY + "_sum{shard=\"orders\"}"), 1e-6);
    }

    @Test
    void shouldLeaveOutAWindowedStatisticWithoutSamplesAndUnknownSeconds() {
        ShardMetrics m = new ShardMetrics("s");
        try (ShardMetricSet set = ShardMetricSet.create(m, BuilderGauges.fixed(0, 0), List.of(),
                 new MockTime(), List.of())) {
            Map<String, String> types = ExpositionText.types(ExpositionText.render(
                ScrapeRegistry.of(m, set::metrics, Map::of)));
            assertTrue(types.containsKey("mvsink_appends_total"));
            assertFalse(types.containsKey("mvsink_seal_latency_p99"), "NaN before the first seal is not a sample");
            assertTrue(types.containsKey("mvsink_seal_lag_ms"), "-1: unknown, as JMX shows it");
            assertFalse(types.containsKey("mvsink_seal_lag_seconds"), "unknown is no sample in seconds");
        }
    }

    @Test
    void shouldKeepACounterWhenAGaugeWouldTakeItsFamilyName() {
        try (Metrics kafka = new Metrics()) {
            kafka.addMetric(kafka.metricName("request-total", "g", "a count"), (config, now) -> 3.0);
            kafka.addMetric(kafka.metricName("request", "g", "a gauge of the same family name"), (config, now) -> 1.0);
            Map<String, String> types = ExpositionText.types(ExpositionText.render(
                ScrapeRegistry.of(new ShardMetrics("s"), Map::of, kafka::metrics)));
            assertEquals("counter", types.get("kafka_g_request_total"));
            assertFalse(types.containsKey("kafka_g_request"));
        }
    }

    @Test
    void shouldSpellKebabCaseAsSnakeCase() {
        assertEquals("seal_latency_p99", KafkaMetricsCollector.clean("seal-latency-p99"));
        assertEquals("a_b_c", KafkaMetricsCollector.clean("a-b.c"));
    }

    @Test
    void shouldGiveEachAppARegistryOfItsOwn() {
        PrometheusRegistry a = ScrapeRegistry.of(new ShardMetrics("a"), Map::of, Map::of);
        PrometheusRegistry b = ScrapeRegistry.of(new ShardMetrics("b"), Map::of, Map::of);
        assertTrue(ExpositionText.render(a).contains("shard=\"a\"") && !ExpositionText.render(a).contains("shard=\"b\""));
        assertTrue(ExpositionText.render(b).contains("jvm_memory_used_bytes"), "JVM metrics in every registry");
    }
}
