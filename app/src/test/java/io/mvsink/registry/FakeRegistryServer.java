package io.mvsink.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A scripted HTTP registry for unit tests: answers by "METHOD path", records every request. */
final class FakeRegistryServer implements AutoCloseable {
    record Answer(int status, String body) {
    }

    record Request(String method, String path, String authorization, String contentType, String accept, String body,
                   String query) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeRegistryServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL a client should use. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7";
    }

    /** Answers {@code method path} (path after the base URL, raw) with {@code status} and {@code body}. */
    void answer(String method, String path, int status, String body) {
        answers.put(method + " " + path, new Answer(status, body));
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath().substring("/apis/ccompat/v7".length());
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(exchange.getRequestMethod(), path,
                exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                exchange.getRequestHeaders().getFirst("Accept"), body, exchange.getRequestURI().getRawQuery()));
        Answer answer = answers.getOrDefault(exchange.getRequestMethod() + " " + path,
                new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
