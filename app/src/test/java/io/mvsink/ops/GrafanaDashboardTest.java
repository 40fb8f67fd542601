package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.ShardMBean;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.topology.DeadLetterReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard in docker/ queries only metric names /metrics really serves. */
class GrafanaDashboardTest {
    private static final Pattern NAME = Pattern.compile("\\b((?:mvsink|kafka)_[a-z0-9_]+)\\b");

    @Test
    void shouldQueryOnlyMetricsTheEndpointServes() throws Exception {
        ShardMBean bean = new ShardMBean(new ShardMetrics("s"), BuilderGauges.fixed(0, 0), DeadLetterReason.ALL);
        Set<String> served = new HashSet<>(PrometheusTextTest.types(PrometheusText.render("s", bean.readings(), Map.of()))
            .keySet());
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
