package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigException;

/**
 * How mvsink reaches blob storage, one of three ways. The options give at most one; the
 * environment is read only when the options give none (explicit configuration wins over
 * whatever a machine happens to have in its environment):
 * <ol>
 *   <li>{@value MvsinkConfig#BLOB_CONNECTION_STRING};</li>
 *   <li>{@value MvsinkConfig#BLOB_ENDPOINT} with {@value MvsinkConfig#BLOB_SAS_TOKEN};</li>
 *   <li>account credentials from the environment: {@value #ENV_CONNECTION_STRING}, or {@value #ENV_ACCOUNT}
 *       with {@value #ENV_KEY} (at {@value MvsinkConfig#BLOB_ENDPOINT}, or by default
 *       {@code https://<account>.blob.core.windows.net}).</li>
 * </ol>
 * Account credentials become a connection string; a SAS token stays a SAS token. Errors name the
 * options and variables, never their values; {@link #toString()} hides the secrets.
 *
 * @param connectionString account connection string (with key), or empty with a SAS token
 * @param endpoint         blob service endpoint with a SAS token, else empty
 * @param sasToken         SAS token, else empty
 * @param source           the options or environment variables it came from, for errors
 */
public record BlobAccess(String connectionString, String endpoint, String sasToken, String source) {
    public static final String ENV_CONNECTION_STRING = "AZURE_STORAGE_CONNECTION_STRING";
    public static final String ENV_ACCOUNT = "AZURE_STORAGE_ACCOUNT";
    public static final String ENV_KEY = "AZURE_STORAGE_KEY";

    private static final String HIDDEN = "[hidden]";
    private static final String WAYS = "set one of " + MvsinkConfig.BLOB_CONNECTION_STRING + "; "
        + MvsinkConfig.BLOB_ENDPOINT + " with " + MvsinkConfig.BLOB_SAS_TOKEN + "; or, when neither is set, in the environment "
        + ENV_CONNECTION_STRING + ", or " + ENV_ACCOUNT + " with " + ENV_KEY + " (and optionally "
        + MvsinkConfig.BLOB_ENDPOINT + ")";

    public BlobAccess {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(sasToken, "sasToken");
        Objects.requireNonNull(source, "source");
    }

    /** True when this is an account connection string (which may create the container), false for a SAS token. */
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
    static void checkOptions(String connectionString, String endpoint, String sasToken) {
        if (!connectionString.isEmpty() && (!endpoint.isEmpty() || !sasToken.isEmpty())) {
            throw new ConfigException(MvsinkConfig.BLOB_CONNECTION_STRING, HIDDEN, "does not go with "
                + MvsinkConfig.BLOB_ENDPOINT + " or " + MvsinkConfig.BLOB_SAS_TOKEN + ": " + WAYS);
        }
        if (!sasToken.isEmpty() && endpoint.isEmpty()) {
            throw new ConfigException(MvsinkConfig.BLOB_SAS_TOKEN, HIDDEN, "needs " + MvsinkConfig.BLOB_ENDPOINT);
        }
    }

    /** The access the options and {@code env} give, by the rule above. */
    static BlobAccess resolve(String connectionString, String endpoint, String sasToken, Map<String, String> env) {
        checkOptions(connectionString, endpoint, sasToken);
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
        return isAccount() ? "BlobAccess[connection string, secret hidden]"
            : "BlobAccess[endpoint=" + endpoint + ", SAS token hidden]";
    }
}
