package io.mvsink.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * One JSON request to the registry and the mapping of its outcome onto the room's exceptions.
 * Messages name the method and path, never the credentials.
 */
final class RegistryHttp {
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    static final String ACCEPT = "application/vnd.schemaregistry.v1+json, application/json";
    private static final int MAX_BODY_IN_MESSAGE = 300;

    private final RegistrySettings settings;
    private final HttpClient http;
    private final ObjectMapper json;
    private final Optional<String> authorization;

    RegistryHttp(RegistrySettings settings, HttpClient http, ObjectMapper json) {
        this.settings = settings;
        this.http = http;
        this.json = json;
        this.authorization = settings.basicAuth().map(a -> "Basic " + Base64.getEncoder()
                .encodeToString((a.user() + ":" + a.password()).getBytes(StandardCharsets.UTF_8)));
    }

    /** GET {@code path} (relative to the base URL, already encoded) and return the JSON body. */
    JsonNode get(String path) {
        return send("GET", path, null);
    }

    /** POST {@code body} as JSON to {@code path}. */
    JsonNode post(String path, Object body) {
        return send("POST", path, body);
    }

    /** PUT {@code body} as JSON to {@code path}. */
    JsonNode put(String path, Object body) {
        return send("PUT", path, body);
    }

    private JsonNode send(String method, String path, Object body) {
        String what = method + " " + settings.baseUrl() + path;
        HttpResponse<String> response = exchange(what, request(method, path, body));
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return parse(what, response.body());
        }
        throw failure(what, status, response.body());
    }

    private HttpRequest request(String method, String path, Object body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.baseUrl() + path))
                .timeout(settings.requestTimeout())
                .header("Accept", ACCEPT);
        authorization.ifPresent(value -> b.header("Authorization", value));
        if (body == null) {
            return b.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        try {
            String text = json.writeValueAsString(body);
            return b.header("Content-Type", CONTENT_TYPE)
                    .method(method, HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8))
                    .build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write registry request body for " + method + " " + path, e);
        }
    }

    private HttpResponse<String> exchange(String what, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RegistryUnavailableException("registry unreachable: " + what + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryUnavailableException("interrupted while waiting for the registry: " + what, e);
        }
    }

    private JsonNode parse(String what, String body) {
        try {
            return json.readTree(body == null || body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            throw new RegistryRequestException("registry answered " + what + " with a body that is not JSON: "
                    + abbreviate(body), 200);
        }
    }

    /** Maps a non-2xx answer: not found, unavailable (5xx) or refused (other). */
    RegistryException failure(String what, int status, String body) {
        int errorCode = -1;
        String message = abbreviate(body);
        try {
            JsonNode node = json.readTree(body == null ? "" : body);
            if (node != null && node.isObject()) {
                errorCode = node.path("error_code").asInt(-1);
                message = node.path("message").asText(message);
            }
        } catch (JsonProcessingException e) {
            // not JSON: keep the raw (abbreviated) body as the message
        }
        String text = "registry answered " + status + (errorCode > 0 ? " (error_code " + errorCode + ")" : "")
                + " to " + what + ": " + message;
        if (status == 404 || errorCode == 40401 || errorCode == 40403) {
            return new UnknownSchemaException(text);
        }
        if (status >= 500) {
            return new RegistryUnavailableException(text, null);
        }
        return new RegistryRequestException(text, status);
    }

    private static String abbreviate(String body) {
        if (body == null) {
            return "";
        }
        return body.length() <= MAX_BODY_IN_MESSAGE ? body : body.substring(0, MAX_BODY_IN_MESSAGE) + "...";
    }
}
