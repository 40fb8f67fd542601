package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A schema registered as a third-party producer registers it: its text as written (an
 * {@code .avsc} file, any whitespace, attribute order or {@code doc}), with the JDK's HTTP client,
 * not through mvsink's client and its rendering of the schema.
 */
public final class RawRegistration {
    private RawRegistration() {
    }

    /** Registers {@code text} under {@code subject} of the Confluent API at {@code baseUrl}; returns its id. */
    public static int registerText(URI baseUrl, String subject, String text) {
        try {
            String body = new ObjectMapper().writeValueAsString(Map.of("schema", text));
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/subjects/"
                            + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20") + "/versions"))
                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            HttpResponse<String> answer = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            return new ObjectMapper().readTree(answer.body()).get("id").intValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
