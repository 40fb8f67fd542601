package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The four ways to reach blob storage, exactly one at a time, and errors that name options but hide secrets. */
class BlobAccessTest {
    private static final String CS = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=S3cretCsKey==;";
    private static final String SAS = "sv=2021&sig=S3cretSig%3D";
    private static final String KEY = "S3cretEnvKey==";
    private static final String ENV_CS = "DefaultEndpointsProtocol=https;AccountName=envacct;AccountKey=S3cretEnvCs==;";
    private static final String ENDPOINT = "http://127.0.0.1:10000/devstoreaccount1";
    private static final String HTTPS_ENDPOINT = "https://acct.blob.core.windows.net";

    private static Map<String, Object> props(String... pairs) {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        for (int i = 0; i < pairs.length; i += 2) {
            props.put(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    private static BlobAccess access(Map<String, String> env, String... pairs) {
        return new MvsinkConfig(props(pairs)).blobAccess(env);
    }

    /** The failure of {@code action}, whose message must hold {@code expected} and no secret. */
    private static String failure(Runnable action, String... expected) {
        String message = assertThrows(ConfigException.class, action::run).getMessage();
        for (String part : expected) {
            assertTrue(message.contains(part), message);
        }
        for (String secret : new String[] {"S3cret", "AccountKey"}) {
            assertFalse(message.contains(secret), message);
        }
        return message;
    }

    @Test
    void shouldUseTheConnectionStringOption() {
        BlobAccess access = access(Map.of(), MvsinkConfig.BLOB_CONNECTION_STRING, CS);
        assertTrue(access.isAccount());
        assertEquals(CS, access.connectionString());
    }

    @Test
    void shouldUseTheEndpointWithTheSasToken() {
        BlobAccess access = access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT, MvsinkConfig.BLOB_SAS_TOKEN, SAS);
        assertFalse(access.isAccount());
        assertEquals(ENDPOINT, access.endpoint());
        assertEquals(SAS, access.sasToken());
    }

    @Test
    void shouldUseTheEnvironmentsConnectionString() {
        BlobAccess access = access(Map.of(BlobAccess.ENV_CONNECTION_STRING, ENV_CS));
        assertEquals(ENV_CS, access.connectionString());
    }

    @Test
    void shouldBuildAConnectionStringFromTheEnvironmentsAccountAndKeyAtTheDefaultEndpoint() {
        BlobAccess access = access(Map.of(BlobAccess.ENV_ACCOUNT, "acct", BlobAccess.ENV_KEY, KEY));
        assertEquals("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + KEY
            + ";BlobEndpoint=https://acct.blob.core.windows.net;", access.connectionString());
    }

    @Test
    void shouldBuildAConnectionStringFromTheEnvironmentsAccountAndKeyAtTheEndpointOption() {
        BlobAccess access = access(Map.of(BlobAccess.ENV_ACCOUNT, "devstoreaccount1", BlobAccess.ENV_KEY, KEY),
            MvsinkConfig.BLOB_ENDPOINT, ENDPOINT);
        assertEquals("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + KEY
            + ";BlobEndpoint=" + ENDPOINT + ";", access.connectionString());
    }

    @Test
    void shouldIgnoreOtherEnvironmentVariables() {
        assertEquals(CS, access(Map.of("PATH", "/bin", "AZURE_CLIENT_ID", "x"), MvsinkConfig.BLOB_CONNECTION_STRING, CS)
            .connectionString());
    }

    @Test
    void shouldFailWithoutAnyAccessNamingEveryWay() {
        failure(() -> access(Map.of()), "no blob storage access", MvsinkConfig.BLOB_CONNECTION_STRING,
            MvsinkConfig.BLOB_ENDPOINT, MvsinkConfig.BLOB_SAS_TOKEN, BlobAccess.ENV_CONNECTION_STRING,
            BlobAccess.ENV_ACCOUNT, BlobAccess.ENV_KEY);
    }

    @Test
    void shouldFailOnAnEndpointAlone() {
        failure(() -> access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT), MvsinkConfig.BLOB_ENDPOINT + " alone");
    }

    @Test
    void shouldFailAtConstructionOnASasTokenWithoutAnEndpoint() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_SAS_TOKEN, SAS)),
            MvsinkConfig.BLOB_SAS_TOKEN, "needs " + MvsinkConfig.BLOB_ENDPOINT);
    }

    @Test
    void shouldFailAtConstructionOnAConnectionStringWithAnEndpointOrSasToken() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_CONNECTION_STRING, CS, MvsinkConfig.BLOB_ENDPOINT, ENDPOINT)),
            MvsinkConfig.BLOB_CONNECTION_STRING, "does not go with");
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_CONNECTION_STRING, CS, MvsinkConfig.BLOB_ENDPOINT, ENDPOINT,
            MvsinkConfig.BLOB_SAS_TOKEN, SAS)), MvsinkConfig.BLOB_CONNECTION_STRING, "does not go with");
    }

    @Test
    void shouldLetTheOptionsWinOverEnvironmentCredentials() {
        BlobAccess byOption = access(Map.of(BlobAccess.ENV_CONNECTION_STRING, ENV_CS), MvsinkConfig.BLOB_CONNECTION_STRING, CS);
        assertEquals(CS, byOption.connectionString(), "the configured connection string, not the environment's");
        BlobAccess bySas = access(Map.of(BlobAccess.ENV_ACCOUNT, "acct", BlobAccess.ENV_KEY, KEY),
            MvsinkConfig.BLOB_ENDPOINT, ENDPOINT, MvsinkConfig.BLOB_SAS_TOKEN, SAS);
        assertEquals(SAS, bySas.sasToken());
        assertEquals("", bySas.connectionString(), "the environment's account key is not used");
    }

    @Test
    void shouldFailOnBothEnvironmentWays() {
        failure(() -> access(Map.of(BlobAccess.ENV_CONNECTION_STRING, ENV_CS, BlobAccess.ENV_ACCOUNT, "acct",
            BlobAccess.ENV_KEY, KEY)), BlobAccess.ENV_CONNECTION_STRING, BlobAccess.ENV_ACCOUNT, "not both");
    }

    @Test
    void shouldFailOnAnEndpointWithTheEnvironmentsConnectionString() {
        failure(() -> access(Map.of(BlobAccess.ENV_CONNECTION_STRING, ENV_CS), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT),
            MvsinkConfig.BLOB_ENDPOINT, BlobAccess.ENV_CONNECTION_STRING);
    }

    @Test
    void shouldFailOnAnAccountWithoutAKeyAndAKeyWithoutAnAccount() {
        failure(() -> access(Map.of(BlobAccess.ENV_ACCOUNT, "acct")), BlobAccess.ENV_ACCOUNT + " needs " + BlobAccess.ENV_KEY);
        failure(() -> access(Map.of(BlobAccess.ENV_KEY, KEY)), BlobAccess.ENV_KEY + " needs " + BlobAccess.ENV_ACCOUNT);
    }

    @Test
    void shouldFailOnABadAccountNameOrKey() {
        failure(() -> access(Map.of(BlobAccess.ENV_ACCOUNT, "Bad_Name", BlobAccess.ENV_KEY, KEY)), BlobAccess.ENV_ACCOUNT);
        failure(() -> access(Map.of(BlobAccess.ENV_ACCOUNT, "acct", BlobAccess.ENV_KEY, "S3cret;x")), BlobAccess.ENV_KEY);
    }

    @Test
    void shouldHideSecretsInToString() {
        assertFalse(access(Map.of(), MvsinkConfig.BLOB_CONNECTION_STRING, CS).toString().contains("S3cret"));
        String sas = access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT, MvsinkConfig.BLOB_SAS_TOKEN, SAS).toString();
        assertFalse(sas.contains("S3cret"), sas);
        assertTrue(sas.contains(ENDPOINT), sas);
    }

    @Test
    void shouldUseTheHttpsEndpointWithEntraIdAndNoSecret() {
        BlobAccess access = access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, HTTPS_ENDPOINT,
            MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA);
        assertEquals(BlobAccess.Way.ENTRA, access.way());
        assertFalse(access.isAccount(), "Entra ID does not create the container");
        assertEquals(HTTPS_ENDPOINT, access.endpoint());
        assertEquals("", access.sasToken());
        assertTrue(access.toString().contains("Entra ID"), access.toString());
    }

    @Test
    void shouldLetEntraIdWinOverEnvironmentCredentials() {
        BlobAccess access = access(Map.of(BlobAccess.ENV_ACCOUNT, "acct", BlobAccess.ENV_KEY, KEY),
            MvsinkConfig.BLOB_ENDPOINT, HTTPS_ENDPOINT, MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA);
        assertEquals(BlobAccess.Way.ENTRA, access.way());
        assertEquals("", access.connectionString());
    }

    @Test
    void shouldKeepTheSecretWaysByDefault() {
        assertEquals(BlobAccess.Way.ACCOUNT, access(Map.of(), MvsinkConfig.BLOB_CONNECTION_STRING, CS).way());
        assertEquals(BlobAccess.Way.SAS, access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT,
            MvsinkConfig.BLOB_SAS_TOKEN, SAS).way());
        assertEquals(BlobAccess.Way.SAS, access(Map.of(), MvsinkConfig.BLOB_ENDPOINT, ENDPOINT,
            MvsinkConfig.BLOB_SAS_TOKEN, SAS, MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_SECRET).way());
    }

    @Test
    void shouldFailAtConstructionOnEntraIdWithAConnectionString() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA,
                MvsinkConfig.BLOB_CONNECTION_STRING, CS, MvsinkConfig.BLOB_ENDPOINT, HTTPS_ENDPOINT)),
            MvsinkConfig.BLOB_CONNECTION_STRING, "does not go with " + MvsinkConfig.BLOB_AUTH + "=" + BlobAccess.AUTH_ENTRA);
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA,
                MvsinkConfig.BLOB_CONNECTION_STRING, CS)),
            MvsinkConfig.BLOB_CONNECTION_STRING, "does not go with " + MvsinkConfig.BLOB_AUTH + "=" + BlobAccess.AUTH_ENTRA);
    }

    @Test
    void shouldFailAtConstructionOnEntraIdWithASasToken() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA,
                MvsinkConfig.BLOB_ENDPOINT, HTTPS_ENDPOINT, MvsinkConfig.BLOB_SAS_TOKEN, SAS)),
            MvsinkConfig.BLOB_SAS_TOKEN, "does not go with " + MvsinkConfig.BLOB_AUTH + "=" + BlobAccess.AUTH_ENTRA);
    }

    @Test
    void shouldFailAtConstructionOnEntraIdWithoutAnEndpoint() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA)),
            MvsinkConfig.BLOB_ENDPOINT, "is needed with " + MvsinkConfig.BLOB_AUTH + "=" + BlobAccess.AUTH_ENTRA);
    }

    @Test
    void shouldFailAtConstructionOnEntraIdOverPlainHttp() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA,
                MvsinkConfig.BLOB_ENDPOINT, ENDPOINT)),
            MvsinkConfig.BLOB_ENDPOINT, "must be https");
    }

    @Test
    void shouldFailAtConstructionOnAnUnknownAuth() {
        failure(() -> new MvsinkConfig(props(MvsinkConfig.BLOB_AUTH, "shared-key",
                MvsinkConfig.BLOB_CONNECTION_STRING, CS)),
            MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_SECRET, BlobAccess.AUTH_ENTRA);
    }
}
