package io.mvsink.blob;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach one Azure Blob Storage container and how hard to retry. Authenticate with a
 * connection string, or with an endpoint plus a SAS token, or with an endpoint plus a token
 * credential (Entra ID). {@link #toString()} hides secrets.
 *
 * @param connectionString account connection string (with key), or empty with an endpoint
 * @param endpoint         account endpoint URL, e.g. {@code https://acct.blob.core.windows.net}, with a SAS token
 *                         or a token credential
 * @param sasToken         SAS token (without the leading {@code ?}) for {@code endpoint}
 * @param credential       token credential (Entra ID) for {@code endpoint}, which must be https
 * @param container        the container that holds the blobs
 * @param maxAttempts      requests per operation, retries included (at least 1)
 * @param initialBackoff   pause before the first retry; doubles per retry
 * @param maxBackoff       cap of the pause between retries
 * @param requestTimeout   how long one request may take
 */
public record BlobStoreSettings(Optional<String> connectionString, Optional<String> endpoint,
                                Optional<String> sasToken, Optional<TokenCredential> credential,
                                String container, int maxAttempts,
                                Duration initialBackoff, Duration maxBackoff, Duration requestTimeout) {
    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(5);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    public BlobStoreSettings {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(sasToken, "sasToken");
        Objects.requireNonNull(credential, "credential");
        if (connectionString.isPresent() == endpoint.isPresent()
                || endpoint.isPresent() != (sasToken.isPresent() ^ credential.isPresent())) {
            throw new IllegalArgumentException("blob store needs a connection string, or an endpoint and either a SAS "
                    + "token or a token credential: " + describe(connectionString, endpoint, sasToken, credential));
        }
        if (container == null || container.isBlank()) {
            throw new IllegalArgumentException("blob store container name must not be blank");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("blob store maxAttempts must be at least 1: " + maxAttempts);
        }
        requirePositive(initialBackoff, "initialBackoff");
        requirePositive(maxBackoff, "maxBackoff");
        requirePositive(requestTimeout, "requestTimeout");
    }

    /** Settings for {@code container} of the account in {@code connectionString}, with default retries. */
    public static BlobStoreSettings fromConnectionString(String connectionString, String container) {
        return new BlobStoreSettings(Optional.of(connectionString), Optional.empty(), Optional.empty(), Optional.empty(),
                container, DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, DEFAULT_REQUEST_TIMEOUT);
    }

    /** Settings for {@code container} at {@code endpoint} authorized by {@code sasToken}, with default retries. */
    public static BlobStoreSettings fromSasToken(String endpoint, String sasToken, String container) {
        return new BlobStoreSettings(Optional.empty(), Optional.of(endpoint), Optional.of(sasToken), Optional.empty(),
                container, DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, DEFAULT_REQUEST_TIMEOUT);
    }

    /** Settings for {@code container} at {@code endpoint} authorized by tokens of {@code credential}, with default retries. */
    public static BlobStoreSettings fromTokenCredential(String endpoint, TokenCredential credential, String container) {
        return new BlobStoreSettings(Optional.empty(), Optional.of(endpoint), Optional.empty(), Optional.of(credential),
                container, DEFAULT_MAX_ATTEMPTS, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF, DEFAULT_REQUEST_TIMEOUT);
    }

    /**
     * Settings for {@code container} at {@code endpoint} authorized by Microsoft Entra ID through the SDK's
     * {@code DefaultAzureCredential}: it reads its own environment (AZURE_CLIENT_ID, AZURE_TENANT_ID,
     * AZURE_FEDERATED_TOKEN_FILE, AZURE_CLIENT_SECRET...) and tries managed identity; no token is fetched here.
     */
    public static BlobStoreSettings fromDefaultAzureCredential(String endpoint, String container) {
        return fromTokenCredential(endpoint, new DefaultAzureCredentialBuilder().build(), container);
    }

    /** A copy with other retry limits. */
    public BlobStoreSettings withRetries(int attempts, Duration initial, Duration max) {
        return new BlobStoreSettings(connectionString, endpoint, sasToken, credential, container, attempts, initial, max,
                requestTimeout);
    }

    /** A copy with another per-request timeout. */
    public BlobStoreSettings withRequestTimeout(Duration timeout) {
        return new BlobStoreSettings(connectionString, endpoint, sasToken, credential, container, maxAttempts,
                initialBackoff, maxBackoff, timeout);
    }

    @Override
    public String toString() {
        return "BlobStoreSettings[" + describe(connectionString, endpoint, sasToken, credential) + ", container=" + container
                + ", maxAttempts=" + maxAttempts + ", initialBackoff=" + initialBackoff + ", maxBackoff=" + maxBackoff
                + ", requestTimeout=" + requestTimeout + "]";
    }

    private static String describe(Optional<String> cs, Optional<String> endpoint, Optional<String> sas,
                                   Optional<TokenCredential> credential) {
        String account = cs.map(BlobStoreSettings::accountOf).orElse(null);
        return (cs.isPresent() ? "connectionString=(account " + account + ", secret hidden)" : "no connectionString")
                + ", endpoint=" + endpoint.orElse("-") + ", sasToken=" + (sas.isPresent() ? "***" : "-")
                + ", credential=" + credential.map(c -> c.getClass().getSimpleName()).orElse("-");
    }

    private static String accountOf(String connectionString) {
        for (String part : connectionString.split(";")) {
            if (part.startsWith("AccountName=")) {
                return part.substring("AccountName=".length());
            }
        }
        return "?";
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("blob store " + name + " must be positive: " + d);
        }
    }
}
