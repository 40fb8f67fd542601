package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.cli.Main;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.ops.DashboardAndAlertsTest;
import io.mvsink.ops.ExpositionText;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The health endpoint of {@code mvsink run} (issue 13) as a container's health check uses it: the
 * health command exits 0 while the app runs and its seals follow the input, the sealed upper it
 * reports rises with the workload, and it exits 1 once the app is gone; the same port serves the
 * metrics in Prometheus' text format, mvsink's and Kafka Streams', parsed as a scraper would.
 */
@ExtendWith(LocalStackExtension.class)
class HealthIT {
    private static final Pattern SEALED = Pattern.compile("\"sealedUpper\":(-?\\d+)");

    @Test
    void shouldSayUpWhileTheSinkRunsAndSealsAndDownOnceItIsGone(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties());
             CorrectionProducer producer = sink.producer()) {
            int port = ChildJmx.freePort();
            String url = "http://127.0.0.1:" + port + "/health";
            ChildApp app = ChildApp.start(sink, "health", List.of(),
                List.of("--set", "num.stream.threads=2", "--set", "http.port=" + port));
            try {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> Main.execute("health", "--url", url) == 0);

                WorkloadRunner runner = new WorkloadRunner(producer, new Workload(81, 100, 0.3), Time.SYSTEM);
                runner.run(400, 2_000, 2_000, 100, n -> { });
                long target = runner.sealThrough(500);
                sink.awaitUpper(target);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    String answer = health(url);
                    assertTrue(answer.contains("\"status\":\"UP\""), answer);
                    Matcher m = SEALED.matcher(answer);
                    assertTrue(m.find() && Long.parseLong(m.group(1)) >= target, "the sealed upper it saw: " + answer);
                });

                // the same port serves the metrics in Prometheus' text format, as a scraper reads them
                HttpResponse<String> scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, scraped.statusCode());
                Map<String, String> types = ExpositionText.types(scraped.body());
                Map<String, Double> samples = ExpositionText.samples(scraped.body(), types);
                String shard = "{shard=\"" + sink.correctionsTopic() + "\"}";
                assertEquals("counter", types.get("mvsink_updates_total"));
                assertTrue(samples.get("mvsink_updates_total" + shard) >= 400, "updates counted");
                assertTrue(samples.get("mvsink_sealed_upper" + shard) >= target, "the sealed upper gauge");
                assertEquals("counter", types.get("kafka_stream_thread_metrics_process_total"), "Kafka Streams' own");
                assertTrue(types.containsKey("kafka_consumer_fetch_manager_metrics_records_lag_max"), "input lag");
                assertEquals("histogram", types.get("mvsink_seal_latency_seconds"), "the seal latency, aggregatable");
                assertTrue(samples.get("mvsink_seal_latency_seconds_count" + shard) >= 1, "seals counted");
                assertTrue(types.containsKey("jvm_memory_used_bytes") && types.containsKey("process_cpu_seconds_total"),
                    "the JVM's and the process's metrics");
                // every metric the dashboard and the alert rules name, Kafka Streams' per task and store too
                Set<String> served = ExpositionText.sampleNames(scraped.body());
                List<String> missing = DashboardAndAlertsTest.queried().stream().filter(n -> !served.contains(n)).toList();
                assertEquals(List.of(), missing, "named by the dashboard or an alert rule, not served");
            } finally {
                app.kill();
            }
            assertEquals(1, Main.execute("health", "--url", url), "nobody answers: unhealthy");
        }
    }

    private static String health(String url) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Main.execute("health", "--url", url);
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
