package io.mvsink.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Readiness probes against 127.0.0.1: a TCP connect and an HTTP GET. */
final class Probes {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private Probes() {
    }

    static boolean tcpOpen(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The status of a GET to {@code uri}; throws if nothing answered in HTTP. */
    static int httpGetStatus(URI uri) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET().build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
