package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigException;

/**
 * How mvsink reaches blob storage, one of four ways. The options give at most one; the
 * environment is read only when the options give none (explicit configuration wins over
 * whatever a machine happens to have in its environment):
 * <ol>
 *   <li>{@value MvsinkConfig#BLOB_CONNECTION_STRING};</li>
 *   <li>{@value MvsinkConfig#BLOB_ENDPOINT} with {@value MvsinkConfig#BLOB_SAS_TOKEN};</li>
 *   <li>{@value MvsinkConfig#BLOB_ENDPOINT} (https) with {@value MvsinkConfig#BLOB_AUTH}={@value #AUTH_ENTRA}:
 *       a Microsoft Entra ID token from the Azure SDK's {@code DefaultAzureCredential}, which reads its own
 *       environment (managed identity, workload identity, {@code AZURE_CLIENT_ID}...);</li>
 *   <li>account credentials from the environment: {@value #ENV_CONNECTION_STRING}, or {@value #ENV_ACCOUNT}
 *       with {@value #ENV_KEY} (at {@value MvsinkConfig#BLOB_ENDPOINT}, or by default
 *       {@code https://<account>.blob.core.windows.net}).</li>
 * </ol>
 * Account credentials become a connection string; a SAS token stays a SAS token; Entra ID is the
 * endpoint alone. Errors name the options and variables, never their values; {@link #toString()}
 * hides the secrets.
 *
 * @param connectionString account connection string (with key), else empty
 * @param endpoint         blob service endpoint with a SAS token or Entra ID, else empty
 * @param sasToken         SAS token, else empty (with a connection string or Entra ID)
 * @param source           the options or environment variables it came from, for errors
 */
public record BlobAccess(String connectionString, String endpoint, String sasToken, String source) {
    public static final String ENV_CONNECTION_STRING = "AZURE_STORAGE_CONNECTION_STRING";
    public static final String ENV_ACCOUNT = "AZURE_STORAGE_ACCOUNT";
    public static final String ENV_KEY = "AZURE_STORAGE_KEY";
    /** {@value MvsinkConfig#BLOB_AUTH}: a secret (connection string, account key or SAS token), the default. */
    public static final String AUTH_SECRET = "secret";
    /** {@value MvsinkConfig#BLOB_AUTH}: a Microsoft Entra ID token from {@code DefaultAzureCredential}. */
    public static final String AUTH_ENTRA = "entra";

    /** The kind of access, which decides how the store authenticates and whether it may create the container. */
    public enum Way {
        /** An account connection string: Shared Key, may create the container. */
        ACCOUNT,
        /** An endpoint with a SAS token: the container must exist. */
        SAS,
        /** An endpoint with an Entra ID token (RBAC): the container must exist. */
        ENTRA
    }

    private static final String HIDDEN = "[hidden]";
    private static final String ENTRA = MvsinkConfig.BLOB_AUTH + "=" + AUTH_ENTRA;
    private static final String WAYS = "set one of " + MvsinkConfig.BLOB_CONNECTION_STRING + "; "
        + MvsinkConfig.BLOB_ENDPOINT + " with " + MvsinkConfig.BLOB_SAS_TOKEN + "; " + MvsinkConfig.BLOB_ENDPOINT
        + " with " + ENTRA + "; or, when none is set, in the environment "
        + ENV_CONNECTION_STRING + ", or " + ENV_ACCOUNT + " with " + ENV_KEY + " (and optionally "
        + MvsinkConfig.BLOB_ENDPOINT + ")";

    public BlobAccess {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(sasToken, "sasToken");
        Objects.requireNonNull(source, "source");
        if (connectionString.isEmpty() == endpoint.isEmpty()) {
            throw new IllegalArgumentException("blob access is a connection string or an endpoint");
        }
    }

    /** The kind of access this is. */
    public Way way() {
        return isAccount() ? Way.ACCOUNT : sasToken.isEmpty() ? Way.ENTRA : Way.SAS;
    }

    /** True when this is an account connection string (which may create the container), false otherwise. */
    public boolean isAccount() {
        return !connectionString.isEmpty();
    }

    /**
     * The error to report when the storage client refuses this access (a malformed connection string
     * or endpoint): it names where the access came from, never its value; {@code refusal} is its cause.
     */
    public ConfigException invalid(RuntimeException refusal) {
        ConfigException e = new ConfigException(source, HIDDEN, "the Azure Storage client refuses it ("
            + refusal.getMessage() + "); "
            + (isAccount() ? "a connection string is key=value pairs separated by ';', e.g. "
                + "DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;EndpointSuffix=core.windows.net"
                : "the endpoint must be a URL, e.g. https://<account>.blob.core.windows.net"));
        e.initCause(refusal);
        return e;
    }

    /** The rules among the options alone, checked when the configuration is built. */
    static void checkOptions(String connectionString, String endpoint, String sasToken, String auth) {
        if (auth.equals(AUTH_ENTRA)) {
            checkEntra(connectionString, endpoint, sasToken);
            return;
        }
        if (!connectionString.isEmpty() && (!endpoint.isEmpty() || !sasToken.isEmpty())) {
            throw new ConfigException(MvsinkConfig.BLOB_CONNECTION_STRING, HIDDEN, "does not go with "
                + MvsinkConfig.BLOB_ENDPOINT + " or " + MvsinkConfig.BLOB_SAS_TOKEN + ": " + WAYS);
        }
        if (!sasToken.isEmpty() && endpoint.isEmpty()) {
            throw new ConfigException(MvsinkConfig.BLOB_SAS_TOKEN, HIDDEN, "needs " + MvsinkConfig.BLOB_ENDPOINT);
        }
    }

    private static void checkEntra(String connectionString, String endpoint, String sasToken) {
        if (!connectionString.isEmpty()) {
            throw new ConfigException(MvsinkConfig.BLOB_CONNECTION_STRING, HIDDEN, "does not go with " + ENTRA
                + " (Entra ID needs no secret): " + WAYS);
        }
        if (!sasToken.isEmpty()) {
            throw new ConfigException(MvsinkConfig.BLOB_SAS_TOKEN, HIDDEN, "does not go with " + ENTRA
                + " (Entra ID needs no secret): " + WAYS);
        }
        if (endpoint.isEmpty()) {
            throw new ConfigException(MvsinkConfig.BLOB_ENDPOINT, endpoint, "is needed with " + ENTRA
                + ", e.g. https://<account>.blob.core.windows.net");
        }
        if (!endpoint.startsWith("https://")) {
            throw new ConfigException(MvsinkConfig.BLOB_ENDPOINT, endpoint, "must be https with " + ENTRA
                + " (the Azure SDK sends a token over TLS only)");
        }
    }

    /** The access the options and {@code env} give, by the rule above. */
    static BlobAccess resolve(String connectionString, String endpoint, String sasToken, String auth,
                              Map<String, String> env) {
        checkOptions(connectionString, endpoint, sasToken, auth);
        if (auth.equals(AUTH_ENTRA)) {
            return new BlobAccess("", endpoint, "", MvsinkConfig.BLOB_ENDPOINT + " with " + ENTRA);
        }
        String envConnection = env.getOrDefault(ENV_CONNECTION_STRING, "");
        String account = env.getOrDefault(ENV_ACCOUNT, "");
        String key = env.getOrDefault(ENV_KEY, "");
        List<String> given = new ArrayList<>();
        if (!connectionString.isEmpty()) {
            given.add(MvsinkConfig.BLOB_CONNECTION_STRING);
        }
        if (!sasToken.isEmpty()) {
            given.add(MvsinkConfig.BLOB_ENDPOINT + " with " + MvsinkConfig.BLOB_SAS_TOKEN);
        }
        boolean fromEnv = given.isEmpty() && (!envConnection.isEmpty() || !account.isEmpty() || !key.isEmpty());
        if (given.size() > 1) {
            throw new ConfigException("blob storage access is given more than one way (" + String.join(", ", given)
                + "): " + WAYS);
        }
        if (!connectionString.isEmpty()) {
            return new BlobAccess(connectionString, "", "", MvsinkConfig.BLOB_CONNECTION_STRING);
        }
        if (!sasToken.isEmpty()) {
            return new BlobAccess("", endpoint, sasToken, MvsinkConfig.BLOB_ENDPOINT + " with " + MvsinkConfig.BLOB_SAS_TOKEN);
        }
        if (!fromEnv) {
            throw new ConfigException("no blob storage access" + (endpoint.isEmpty() ? "" : " (" + MvsinkConfig.BLOB_ENDPOINT
                + " alone is not enough)") + ": " + WAYS);
        }
        return fromEnvironment(envConnection, account, key, endpoint);
    }

    private static BlobAccess fromEnvironment(String envConnection, String account, String key, String endpoint) {
        if (!envConnection.isEmpty()) {
            if (!account.isEmpty() || !key.isEmpty()) {
                throw new ConfigException("set " + ENV_CONNECTION_STRING + ", or " + ENV_ACCOUNT + " with " + ENV_KEY
                    + ", not both");
            }
            if (!endpoint.isEmpty()) {
                throw new ConfigException(MvsinkConfig.BLOB_ENDPOINT + " does not go with " + ENV_CONNECTION_STRING
                    + " (the connection string names the endpoint)");
            }
            return new BlobAccess(envConnection, "", "", ENV_CONNECTION_STRING);
        }
        if (account.isEmpty() || key.isEmpty()) {
            throw new ConfigException((account.isEmpty() ? ENV_KEY + " needs " + ENV_ACCOUNT : ENV_ACCOUNT + " needs " + ENV_KEY)
                + " in the environment");
        }
        if (!account.matches("[a-z0-9]{3,24}")) {
            throw new ConfigException(ENV_ACCOUNT + " must be an Azure storage account name: 3-24 lowercase letters and digits");
        }
        if (key.contains(";")) {
            throw new ConfigException(ENV_KEY + " must be an account key (base64, no ';')");
        }
        String blobEndpoint = endpoint.isEmpty() ? "https://" + account + ".blob.core.windows.net" : endpoint;
        String protocol = blobEndpoint.startsWith("http://") ? "http" : "https";
        return new BlobAccess("DefaultEndpointsProtocol=" + protocol + ";AccountName=" + account + ";AccountKey=" + key
            + ";BlobEndpoint=" + blobEndpoint + ";", "", "", ENV_ACCOUNT + " with " + ENV_KEY
            + (endpoint.isEmpty() ? "" : " at " + MvsinkConfig.BLOB_ENDPOINT));
    }

    @Override
    public String toString() {
        return switch (way()) {
            case ACCOUNT -> "BlobAccess[connection string, secret hidden]";
            case SAS -> "BlobAccess[endpoint=" + endpoint + ", SAS token hidden]";
            case ENTRA -> "BlobAccess[endpoint=" + endpoint + ", Entra ID]";
        };
    }
}
