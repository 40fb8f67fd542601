package io.mvsink.registry;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach a Confluent-compatible schema registry.
 *
 * @param baseUrl        the API root, e.g. {@code http://127.0.0.1:8081/apis/ccompat/v7}
 * @param basicAuth      credentials for HTTP basic authentication, if the registry wants them
 * @param requestTimeout how long one request (and one connect) may take
 */
public record RegistrySettings(URI baseUrl, Optional<BasicAuth> basicAuth, Duration requestTimeout) {
    /** Default for {@link #requestTimeout()}. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** User and password for basic authentication; {@link #toString()} never shows the password. */
    public record BasicAuth(String user, String password) {
        public BasicAuth {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "BasicAuth[user=" + user + ", password=***]";
        }
    }

    public RegistrySettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(basicAuth, "basicAuth");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (baseUrl.getScheme() == null || !baseUrl.getScheme().startsWith("http")) {
            throw new IllegalArgumentException("registry base URL must be http(s): " + redacted(baseUrl));
        }
        if (baseUrl.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    "registry base URL must not carry credentials, use basic auth settings: " + redacted(baseUrl));
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("registry request timeout must be positive: " + requestTimeout);
        }
        String url = baseUrl.toString();
        if (url.endsWith("/")) {
            baseUrl = URI.create(url.substring(0, url.length() - 1));
        }
    }

    /** Settings for {@code baseUrl} without authentication and with the default timeout. */
    public static RegistrySettings of(String baseUrl) {
        return new RegistrySettings(URI.create(baseUrl), Optional.empty(), DEFAULT_REQUEST_TIMEOUT);
    }

    /** A copy that authenticates with {@code user} and {@code password}. */
    public RegistrySettings withBasicAuth(String user, String password) {
        return new RegistrySettings(baseUrl, Optional.of(new BasicAuth(user, password)), requestTimeout);
    }

    /** A copy with another request timeout. */
    public RegistrySettings withRequestTimeout(Duration timeout) {
        return new RegistrySettings(baseUrl, basicAuth, timeout);
    }

    private static String redacted(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + uri.getRawPath();
    }
}
