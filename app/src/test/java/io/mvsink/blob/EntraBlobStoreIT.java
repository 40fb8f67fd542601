package io.mvsink.blob;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import io.mvsink.Wiring;
import io.mvsink.config.BlobAccess;
import io.mvsink.config.MvsinkConfig;
import java.io.IOException;
import java.net.Socket;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * The Entra ID way in ({@code blob.auth=entra}) on Azurite in OAuth mode: Azurite's {@code --oauth basic}
 * takes bearer tokens only over HTTPS, so this starts an Azurite of its own with a certificate made here
 * ({@link SelfSignedTls}) and hands the store an HTTP client that trusts it. The token credential stands in
 * for {@code DefaultAzureCredential}: Azurite checks a token's issuer, audience and lifetime, not its
 * signature, so it is an unsigned JWT. What it shows: the store authenticates with the credential's bearer
 * token alone (no key, no SAS), asks for the storage scope, and is refused with a token for another audience.
 * What it cannot show: that DefaultAzureCredential gets a token from a real managed or workload identity.
 */
class EntraBlobStoreIT {
    private static final String ACCOUNT = "devstoreaccount1";
    private static final String STORAGE_SCOPE = "https://storage.azure.com/.default";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    private static Process azurite;
    private static SelfSignedTls tls;
    private static String endpoint;

    @BeforeAll
    static void startAzuriteInOAuthMode() throws Exception {
        tls = SelfSignedTls.forLocalhost(dir);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        azurite = new ProcessBuilder(azuriteBlob().toString(), "--blobHost", "127.0.0.1",
            "--blobPort", Integer.toString(port), "--inMemoryPersistence", "--skipApiVersionCheck", "--loose",
            "--oauth", "basic", "--cert", tls.certificate().toString(), "--key", tls.key().toString())
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("azurite.log").toFile())
            .start();
        endpoint = "https://127.0.0.1:" + port + "/" + ACCOUNT;
        int listening = port;
        await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200))
            .until(() -> !azurite.isAlive() || portOpen(listening));
        assertTrue(azurite.isAlive(), () -> "Azurite ended: " + log());
    }

    @AfterAll
    static void stopAzurite() throws InterruptedException {
        if (azurite != null) {
            azurite.destroy();
            azurite.waitFor();
        }
    }

    @Test
    void shouldPutGetAndListWithABearerTokenAlone() {
        Set<String> scopes = ConcurrentHashMap.newKeySet();
        String container = "entra-" + UUID.randomUUID().toString().substring(0, 8);
        try (AzureBlobStore store = store(fakeEntra("https://storage.azure.com", scopes), container)) {
            store.ensureContainer();
            byte[] data = "part".getBytes(StandardCharsets.UTF_8);
            store.putIfAbsent("shard/b", data, "owner");
            store.putIfAbsent("shard/a", data, null);
            assertArrayEquals(data, store.get("shard/b"));
            assertEquals(List.of("shard/a", "shard/b"), store.list("shard/").stream().map(BlobInfo::key).toList());
            assertEquals("owner", store.list("shard/b").get(0).owner());
            assertEquals(ACCOUNT + "/" + container, store.location(), "every kind of access names the same location");
        }
        assertEquals(Set.of(STORAGE_SCOPE), scopes, "the store asks for a token for Azure Storage");
    }

    @Test
    void shouldBeRefusedWithATokenForAnotherAudience() {
        String container = "entra-" + UUID.randomUUID().toString().substring(0, 8);
        try (AzureBlobStore store = store(fakeEntra("https://vault.azure.net", ConcurrentHashMap.newKeySet()),
                container)) {
            BlobException refused = assertThrows(BlobException.class, store::ensureContainer);
            StringBuilder causes = new StringBuilder();
            for (Throwable t = refused; t != null; t = t.getCause()) {
                causes.append(t.getMessage()).append('\n');
            }
            assertTrue(causes.toString().contains("Invalid token audience"), causes.toString());
        }
    }

    @Test
    void shouldWireDefaultAzureCredentialWithoutCreatingTheContainer() {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        props.put(MvsinkConfig.BLOB_CONTAINER, "not-created");
        props.put(MvsinkConfig.BLOB_ENDPOINT, "https://acct.blob.core.windows.net");
        props.put(MvsinkConfig.BLOB_AUTH, BlobAccess.AUTH_ENTRA);
        try (AzureBlobStore store = Wiring.blobs(new MvsinkConfig(props), Map.of())) {
            assertEquals("acct/not-created", store.location(), "built with no request: no token is needed yet");
            assertEquals(0, store.writeRequests(), "the container is not created with Entra ID");
        }
    }

    private static AzureBlobStore store(TokenCredential credential, String container) {
        BlobStoreSettings settings = BlobStoreSettings.fromTokenCredential(endpoint, credential, container)
            .withRetries(2, Duration.ofMillis(10), Duration.ofMillis(10));
        return new AzureBlobStore(settings, Sleeper.REAL, HttpClient.newBuilder().sslContext(tls.trustingContext()));
    }

    /** A credential whose tokens look like Entra ID's for {@code audience} (unsigned: Azurite does not check). */
    private static TokenCredential fakeEntra(String audience, Set<String> scopes) {
        return request -> {
            scopes.addAll(request.getScopes());
            long now = System.currentTimeMillis() / 1000;
            String claims = "{\"aud\":\"" + audience + "\",\"iss\":\"https://sts.windows.net/"
                + UUID.randomUUID() + "/\",\"iat\":" + (now - 60) + ",\"nbf\":" + (now - 60) + ",\"exp\":"
                + (now + 3600) + ",\"oid\":\"" + UUID.randomUUID() + "\"}";
            String jwt = base64Url("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + base64Url(claims) + ".";
            return Mono.just(new AccessToken(jwt, OffsetDateTime.now().plusHours(1)));
        };
    }

    private static String base64Url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Azurite's blob launcher of the local stack (built by {@code mvn install}), found from the module dir up. */
    private static Path azuriteBlob() {
        String property = System.getProperty("mvsink.stack.dir");
        Path here = Path.of("").toAbsolutePath();
        for (Path at = here; at != null; at = at.getParent()) {
            Path stack = property != null ? Path.of(property) : at.resolve("local-stack");
            Path launcher = stack.resolve("node_modules").resolve(".bin").resolve("azurite-blob");
            if (Files.isExecutable(launcher)) {
                return launcher;
            }
        }
        throw new IllegalStateException("no local-stack/node_modules/.bin/azurite-blob above " + here
            + ": build the local stack (mvn install)");
    }

    private static boolean portOpen(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String log() {
        try {
            return Files.readString(dir.resolve("azurite.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
