package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.topology.DeadLetterReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard in docker/ queries only metric names /metrics really serves. */
class GrafanaDashboardTest {
    private static final Pattern NAME = Pattern.compile("\\b((?:mvsink|kafka)_[a-z0-9_]+)\\b");

    @Test
    void shouldQueryOnlyMetricsTheEndpointServes() throws Exception {
        ShardMetrics metrics = new ShardMetrics("s");
        Set<String> served;
        try (ShardMetricSet set = ShardMetricSet.create(metrics, BuilderGauges.fixed(0, 0), DeadLetterReason.ALL,
                 new MockTime(), List.of())) {
            metrics.appended(1, 1, 1, 10, 40); // the seal latency's statistics are served once a seal is in their window
            served = new HashSet<>(PrometheusTextTest.types(PrometheusText.render(set.metrics(), Map.of())).keySet());
        }
        served.add("kafka_consumer_fetch_manager_metrics_records_lag_max"); // Kafka's own (HealthIT sees it served)

        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(Path.of("..", "docker", "grafana-dashboard.json")));
        Set<String> queried = new HashSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher m = NAME.matcher(target.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group(1));
                }
            }
        }
        assertFalse(queried.isEmpty());
        for (String name : queried) {
            assertTrue(served.contains(name), "the dashboard queries " + name + ", which /metrics does not serve");
        }
    }
}
