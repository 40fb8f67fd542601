package io.mvsink.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * run's HTTP endpoint for operations ({@code http.port}): {@code GET /health} and
 * {@code GET /health/live} answer 200 with the health as JSON when it is up, 503 when it is not;
 * {@code GET /metrics} answers the metrics in Prometheus' text format. One daemon thread; nothing
 * here touches a stream thread.
 */
public final class OpsServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;

    private OpsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts the endpoint on {@code port} of every interface (0: a free port).
     *
     * @param health the health now; its argument is whether only liveness is asked
     */
    public static OpsServer start(int port, Function<Boolean, Health> health) {
        return start(port, health, () -> "");
    }

    /**
     * Starts the endpoint on {@code port} of every interface (0: a free port).
     *
     * @param health the health now; its argument is whether only liveness is asked
     * @param metrics the metrics now, in Prometheus' text format
     */
    public static OpsServer start(int port, Function<Boolean, Health> health, Supplier<String> metrics) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(port), 16);
            ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mvsink-http");
                t.setDaemon(true);
                return t;
            });
            server.setExecutor(executor);
            server.createContext("/health", exchange -> answer(exchange, health));
            server.createContext("/metrics", exchange -> metrics(exchange, metrics));
            server.start();
            return new OpsServer(server, executor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on http.port " + port + ": " + e.getMessage(), e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
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

    private static void metrics(HttpExchange exchange, Supplier<String> metrics) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) || !exchange.getRequestURI().getPath().equals("/metrics")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = metrics.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
