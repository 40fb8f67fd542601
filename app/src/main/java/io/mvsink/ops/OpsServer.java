package io.mvsink.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * run's HTTP endpoint for operations ({@code http.port}): {@code GET /health} and
 * {@code GET /health/live} answer 200 with the health as JSON when it is up, 503 when it is not;
 * {@code GET /metrics} answers a Prometheus registry through the Prometheus client's own handler
 * (text format, OpenMetrics or protobuf as the scraper asks, {@code name[]} filters, gzip).
 * <p>
 * Two threads, so that a slow scrape never holds up a probe: the server's own
 * ({@code mvsink-http-health}) reads every request and answers health; it hands a scrape to
 * {@code mvsink-http-metrics}, which takes {@value #QUEUED_SCRAPES} more waiting scrapes and
 * answers 503 beyond. Both are daemons; nothing here touches a stream thread.
 */
public final class OpsServer implements AutoCloseable {
    static final int QUEUED_SCRAPES = 4;
    private final HttpServer server;
    private final ExecutorService health;
    private final ExecutorService metrics;

    private OpsServer(HttpServer server, ExecutorService health, ExecutorService metrics) {
        this.server = server;
        this.health = health;
        this.metrics = metrics;
    }

    /**
     * Starts the endpoint on {@code port} of every interface (0: a free port) with nothing to scrape.
     *
     * @param health the health now; its argument is whether only liveness is asked
     */
    public static OpsServer start(int port, Function<Boolean, Health> health) {
        return start(port, health, new PrometheusRegistry());
    }

    /**
     * Starts the endpoint on {@code port} of every interface (0: a free port).
     *
     * @param health the health now; its argument is whether only liveness is asked
     * @param registry what {@code /metrics} serves ({@link ScrapeRegistry#of})
     */
    public static OpsServer start(int port, Function<Boolean, Health> health, PrometheusRegistry registry) {
        ExecutorService healthThread = singleThread("mvsink-http-health", 0);
        ExecutorService metricsThread = singleThread("mvsink-http-metrics", QUEUED_SCRAPES);
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(port), 16);
            server.setExecutor(healthThread);
            server.createContext("/health", exchange -> answer(exchange, health));
            server.createContext("/metrics", scrapes(new MetricsHandler(registry), metricsThread));
            server.start();
            return new OpsServer(server, healthThread, metricsThread);
        } catch (IOException e) {
            healthThread.shutdownNow();
            metricsThread.shutdownNow();
            throw new UncheckedIOException("cannot listen on http.port " + port + ": " + e.getMessage(), e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    private static ExecutorService singleThread(String name, int queued) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            queued == 0 ? new LinkedBlockingQueue<>() : new ArrayBlockingQueue<>(queued), r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
    }

    private static void answer(HttpExchange exchange, Function<Boolean, Health> health) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!"GET".equals(exchange.getRequestMethod()) || !(path.equals("/health") || path.equals("/health/live"))) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            Health now = health.apply(path.equals("/health/live"));
            byte[] body = (now.json() + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(now.up() ? 200 : 503, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Hands each scrape of {@code /metrics} to {@code thread}; 404 for other paths, 503 when too many wait. */
    private static HttpHandler scrapes(MetricsHandler handler, ExecutorService thread) {
        return exchange -> {
            if (!exchange.getRequestURI().getPath().equals("/metrics")) {
                try (exchange) {
                    exchange.sendResponseHeaders(404, -1);
                }
                return;
            }
            try {
                thread.execute(() -> {
                    try (exchange) {
                        handler.handle(exchange);
                    } catch (IOException e) {
                        // the scraper went away; nothing to answer
                    }
                });
            } catch (RejectedExecutionException e) {
                try (exchange) {
                    exchange.sendResponseHeaders(503, -1);
                }
            }
        };
    }

    @Override
    public void close() {
        server.stop(0);
        health.shutdownNow();
        metrics.shutdownNow();
    }
}
