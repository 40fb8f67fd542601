package io.mvsink.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.mvsink.faults.FaultProxy.Fault;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private HttpServer server;
    private FaultProxy proxy;

    /** A server that records "METHOD path body" and echoes the body, chunked when the path asks for it. */
    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                + new String(body, StandardCharsets.UTF_8));
            boolean chunked = exchange.getRequestURI().getPath().contains("chunked");
            exchange.sendResponseHeaders(200, chunked ? 0 : (body.length == 0 ? -1 : body.length));
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        proxy = new FaultProxy("127.0.0.1", server.getAddress().getPort(), 42);
    }

    @AfterEach
    void stop() {
        proxy.close();
        server.stop(0);
    }

    @Test
    void shouldRelayBodiesFramedByLengthOrChunkedBothWays() throws Exception {
        assertEquals("fixed", send(put("/a", "fixed")).body());
        assertEquals("streamed", send(put("/b", HttpRequest.BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream("streamed".getBytes(StandardCharsets.UTF_8))))).body());
        assertEquals("both", send(put("/chunked", HttpRequest.BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream("both".getBytes(StandardCharsets.UTF_8))))).body());
        assertEquals(200, send(request("/c").GET().build()).statusCode());

        assertEquals(List.of("PUT /a fixed", "PUT /b streamed", "PUT /chunked both", "GET /c "), seen);
        assertEquals(4, proxy.forwarded());
    }

    @Test
    void shouldServeSeveralRequestsOnOneKeepAliveConnection() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", proxy.port())) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            List<Integer> statuses = new ArrayList<>();
            for (String path : List.of("/one", "/chunked-two", "/three")) {
                out.write(("PUT " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
                    .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                statuses.add(HttpMessage.read(in, "PUT").status());
            }
            assertEquals(List.of(200, 200, 200), statuses);
        }
        assertEquals(List.of("PUT /one hi", "PUT /chunked-two hi", "PUT /three hi"), seen);
    }

    @Test
    void shouldAnswer500And503WithoutForwarding() throws Exception {
        proxy.fail(Fault.ERROR_500, 1.0);
        assertEquals(500, send(put("/a", "x")).statusCode());
        proxy.fail(Fault.ERROR_500, 0).fail(Fault.ERROR_503, 1.0);
        assertEquals(503, send(put("/b", "x")).statusCode());

        assertEquals(List.of(), seen);
        assertEquals(1, proxy.injected(Fault.ERROR_500));
        assertEquals(1, proxy.injected(Fault.ERROR_503));
        assertEquals(0, proxy.forwarded());
    }

    @Test
    void shouldHoldATimedOutRequestUntilTheClientGivesUp() {
        proxy.fail(Fault.TIMEOUT, 1.0);
        HttpRequest request = request("/a").timeout(Duration.ofMillis(300))
            .PUT(HttpRequest.BodyPublishers.ofString("x")).build();

        assertThrows(HttpTimeoutException.class, () -> send(request));
        assertEquals(List.of(), seen);
        assertEquals(1, proxy.injected(Fault.TIMEOUT));
    }

    @Test
    void shouldResetTheClientAfterTheTargetDidTheWrite() {
        proxy.fail(Fault.RESET_AFTER_FORWARD, 1.0);

        IOException e = assertThrows(IOException.class, () -> send(put("/a", "landed")));
        assertFalse(e instanceof HttpTimeoutException, e.toString());
        assertEquals(List.of("PUT /a landed"), seen);
        assertEquals(1, proxy.forwarded());
        assertEquals(List.of(new FaultProxy.Exchange(new FaultProxy.Request("PUT", "/a"), Fault.RESET_AFTER_FORWARD, 200)),
            proxy.exchanges());
    }

    @Test
    void shouldFailOnlyMatchingRequests() throws Exception {
        proxy.fail(Fault.ERROR_500, 1.0);
        assertEquals(200, send(request("/a").GET().build()).statusCode());

        proxy.matching(r -> r.target().startsWith("/parts/"));
        assertEquals(200, send(put("/other", "x")).statusCode());
        assertEquals(500, send(put("/parts/1", "x")).statusCode());
    }

    @Test
    void shouldFailTheSameSeededShareEveryTime() throws Exception {
        List<Integer> first = statuses(42);
        List<Integer> again = statuses(42);

        assertEquals(first, again);
        long failed = first.stream().filter(s -> s == 500).count();
        assertTrue(failed > 15 && failed < 45, "about 30% of 100 failed: " + failed);
    }

    @Test
    void shouldRefuseConnectionsWhileDownAndComeBackOnTheSamePort() throws Exception {
        int port = proxy.port();
        proxy.down(true);
        assertThrows(ConnectException.class, () -> send(put("/a", "x")));

        proxy.down(false);
        assertEquals(port, proxy.port());
        assertEquals(200, send(put("/b", "x")).statusCode());
        assertEquals(List.of("PUT /b x"), seen);
    }

    private List<Integer> statuses(long seed) throws Exception {
        try (FaultProxy seeded = new FaultProxy("127.0.0.1", server.getAddress().getPort(), seed)) {
            seeded.fail(Fault.ERROR_500, 0.3);
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                HttpRequest put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + seeded.port() + "/s"))
                    .PUT(HttpRequest.BodyPublishers.ofString("x")).build();
                statuses.add(send(put).statusCode());
            }
            return statuses;
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path)).timeout(Duration.ofSeconds(10));
    }

    private HttpRequest put(String path, String body) {
        return put(path, HttpRequest.BodyPublishers.ofString(body));
    }

    private HttpRequest put(String path, HttpRequest.BodyPublisher body) {
        return request(path).PUT(body).build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
