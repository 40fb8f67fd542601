package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import io.mvsink.Wiring;
import io.mvsink.blob.AzureBlobStore;
import io.mvsink.blob.BlobInfo;
import io.mvsink.config.BlobAccess;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Stores built through {@link Wiring} from a SAS token and from environment account credentials, on Azurite. */
@ExtendWith(LocalStackExtension.class)
class BlobAccessIT {
    private static final String ACCOUNT = "devstoreaccount1";

    @Test
    void shouldPutGetAndListWithAContainerSasToken(LocalStack stack) {
        String container = "sas-" + UUID.randomUUID().toString().substring(0, 8);
        BlobContainerClient admin = new BlobContainerClientBuilder()
            .connectionString(stack.blobConnectionString()).containerName(container).buildClient();
        admin.create();
        String sas = admin.generateSas(new BlobServiceSasSignatureValues(OffsetDateTime.now().plusHours(1),
            new BlobContainerSasPermission().setReadPermission(true).setWritePermission(true)
                .setCreatePermission(true).setListPermission(true).setDeletePermission(true)));
        assertFalse(sas.contains(part(stack.blobConnectionString(), "AccountKey")), "a SAS token is not the key");

        MvsinkConfig config = config(container, MvsinkConfig.BLOB_ENDPOINT, endpoint(stack),
            MvsinkConfig.BLOB_SAS_TOKEN, sas);
        try (AzureBlobStore store = Wiring.blobs(config, Map.of())) {
            assertRoundTrips(store);
            assertEquals(ACCOUNT + "/" + container, store.location(), "every kind of access names the same location");
        }
    }

    @Test
    void shouldPutGetAndListWithTheEnvironmentsAccountAndKeyAtTheEndpoint(LocalStack stack) {
        String container = "env-" + UUID.randomUUID().toString().substring(0, 8);
        MvsinkConfig config = config(container, MvsinkConfig.BLOB_ENDPOINT, endpoint(stack));
        Map<String, String> env = Map.of(BlobAccess.ENV_ACCOUNT, ACCOUNT,
            BlobAccess.ENV_KEY, part(stack.blobConnectionString(), "AccountKey"));
        try (AzureBlobStore store = Wiring.blobs(config, env)) {
            assertRoundTrips(store);
            assertEquals(ACCOUNT + "/" + container, store.location(), "every kind of access names the same location");
        }
    }

    @Test
    void shouldPutGetAndListWithTheEnvironmentsConnectionString(LocalStack stack) {
        String container = "envcs-" + UUID.randomUUID().toString().substring(0, 8);
        MvsinkConfig config = config(container);
        Map<String, String> env = Map.of(BlobAccess.ENV_CONNECTION_STRING, stack.blobConnectionString());
        try (AzureBlobStore store = Wiring.blobs(config, env)) {
            assertRoundTrips(store);
            assertEquals(ACCOUNT + "/" + container, store.location(), "every kind of access names the same location");
        }
    }

    private static void assertRoundTrips(AzureBlobStore store) {
        byte[] data = "part".getBytes(StandardCharsets.UTF_8);
        store.putIfAbsent("shard/b", data, null);
        store.putIfAbsent("shard/a", data, null);
        assertArrayEquals(data, store.get("shard/b"));
        assertEquals(List.of("shard/a", "shard/b"), store.list("shard/").stream().map(BlobInfo::key).toList());
    }

    private static MvsinkConfig config(String container, String... pairs) {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        props.put(MvsinkConfig.BLOB_CONTAINER, container);
        for (int i = 0; i < pairs.length; i += 2) {
            props.put(pairs[i], pairs[i + 1]);
        }
        return new MvsinkConfig(props);
    }

    /** Azurite's blob service endpoint of the dev account, e.g. http://127.0.0.1:port/devstoreaccount1. */
    private static String endpoint(LocalStack stack) {
        return part(stack.blobConnectionString(), "BlobEndpoint").replaceAll("/$", "");
    }

    private static String part(String connectionString, String name) {
        for (String part : connectionString.split(";")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalArgumentException("no " + name + " in the connection string");
    }
}
