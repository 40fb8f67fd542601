package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.metrics.SealProgress;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

/** The ops endpoint's threads: a scrape that hangs never holds up the health probe. */
class OpsServerTest {
    @Test
    void shouldAnswerHealthWhileAScrapeIsBlocked() throws Exception {
        CountDownLatch scraping = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register((MultiCollector) () -> {
            scraping.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return MetricSnapshots.of();
        });
        try (OpsServer server = OpsServer.start(0, live -> Health.of(State.RUNNING, new SealProgress(), 0, 1, live),
                registry)) {
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port();
            CompletableFuture<HttpResponse<String>> scrape = client.sendAsync(
                HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(scraping.await(10, TimeUnit.SECONDS), "the scrape reached the metrics");

            HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(base + "/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), health.body());

            release.countDown();
            assertEquals(200, scrape.get(10, TimeUnit.SECONDS).statusCode());
        }
    }
}
