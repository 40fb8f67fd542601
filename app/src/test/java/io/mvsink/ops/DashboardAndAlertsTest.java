package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.mvsink.metrics.BuilderGauges;
import io.mvsink.metrics.SealProgress;
import io.mvsink.metrics.ShardMetricSet;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.topology.DeadLetterReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard and the Prometheus alert rules in docker/ name only metrics that /metrics
 * serves: scraped over HTTP from an {@link OpsServer} on the registry {@code run} builds, with the
 * shard's full metric set and a Kafka Streams app's own metrics (built, not started). Those served
 * only once the app runs ({@link #ONCE_RUNNING}: task, state store, RocksDB, fetch lag) are checked
 * by {@code HealthIT} on a running app.
 */
public class DashboardAndAlertsTest {
    private static final Pattern NAME = Pattern.compile("\\b((?:mvsink|kafka|jvm|process)_[a-zA-Z0-9_]+)\\b");
    /**
     * Families served only once the app runs: Kafka Streams registers them per task or store, or
     * they are windowed statistics without a sample before the first fetch (NaN, left out).
     */
    public static final List<String> ONCE_RUNNING = List.of("kafka_stream_task_metrics_",
        "kafka_stream_state_metrics_", "kafka_stream_processor_node_metrics_", "kafka_consumer_fetch_manager_metrics_");

    @Test
    void shouldNameOnlyMetricsTheEndpointServes(@TempDir Path state) throws Exception {
        Set<String> served = scrape(state);
        List<String> missing = new ArrayList<>();
        for (String name : queried()) {
            if (!served.contains(name) && ONCE_RUNNING.stream().noneMatch(name::startsWith)) {
                missing.add(name);
            }
        }
        assertEquals(List.of(), missing, "named by the dashboard or an alert rule, not served by /metrics");
    }

    @Test
    void shouldShipTheAlertsTheIssueAsksFor() {
        JsonNode rules = alertRules();
        Set<String> alerts = new TreeSet<>();
        for (JsonNode rule : rules) {
            alerts.add(rule.path("alert").asText());
            assertFalse(rule.path("expr").asText().isBlank(), rule.toString());
            assertFalse(rule.path("labels").path("severity").asText().isBlank(), "severity of " + rule);
            assertFalse(rule.path("annotations").path("summary").asText().isBlank(), "summary of " + rule);
        }
        assertTrue(alerts.containsAll(List.of("MvsinkSealLagHigh", "MvsinkSealStalled", "MvsinkDeadLettersRising",
            "MvsinkAppendMismatches", "MvsinkBlobGcFailing")), alerts.toString());
        String readme = read(Path.of("..", "docker", "README.md"));
        assertTrue(readme.contains("prometheus-alerts.yaml"), "docker/README.md names the rules");
        assertTrue(read(Path.of("..", "README.md")).contains("docker/prometheus-alerts.yaml"), "README names them");
    }

    @Test
    void shouldSeeTheNamesInTheFiles() {
        Set<String> names = queried();
        assertTrue(names.contains("mvsink_seal_latency_seconds_bucket"), "a panel on the histogram");
        assertTrue(names.contains("mvsink_frontier_lag_seconds"), "a rule on the lag");
        assertTrue(names.contains("jvm_gc_collection_seconds_sum"), "a rule on the JVM's GC");
        assertTrue(names.contains("kafka_stream_state_metrics_block_cache_usage"), "a panel on RocksDB");
    }

    /** Every metric name in a dashboard panel's, its variables' or an alert rule's expression. */
    public static Set<String> queried() {
        Set<String> names = new TreeSet<>();
        JsonNode dashboard = json(new ObjectMapper(), Path.of("..", "docker", "grafana-dashboard.json"));
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                names(target.path("expr").asText(), names);
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            names(variable.path("query").asText(), names);
        }
        for (JsonNode rule : alertRules()) {
            names(rule.path("expr").asText(), names);
        }
        return names;
    }

    private static JsonNode alertRules() {
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode group : json(new ObjectMapper(new YAMLFactory()), Path.of("..", "docker",
                "prometheus-alerts.yaml")).path("groups")) {
            group.path("rules").forEach(rules::add);
        }
        assertFalse(rules.isEmpty());
        return new ObjectMapper().valueToTree(rules);
    }

    private static void names(String expr, Set<String> into) {
        Matcher m = NAME.matcher(expr);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    private static Set<String> scrape(Path state) throws Exception {
        ShardMetrics metrics = new ShardMetrics("s");
        SealProgress progress = metrics.sealProgress();
        progress.observed(0, 5_000, 6_000, 1_000); // the lags in seconds are served once they are known
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).foreach((k, v) -> { });
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "dashboard-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        try (ShardMetricSet set = ShardMetricSet.create(metrics, BuilderGauges.fixed(0, 0), DeadLetterReason.ALL,
                 new MockTime(), List.of());
             OpsServer server = OpsServer.start(0, live -> null, ScrapeRegistry.of(metrics, set::metrics,
                 streams::metrics))) {
            metrics.appended(1, 1, 1, 10, 40); // the seal latency's windowed statistics need a seal in their window
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/metrics")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode());
            return ExpositionText.sampleNames(answer.body());
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }

    private static JsonNode json(ObjectMapper mapper, Path file) {
        try {
            return mapper.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
