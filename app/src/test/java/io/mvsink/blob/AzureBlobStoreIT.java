package io.mvsink.blob;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link AzureBlobStore} against a real Azurite. */
@ExtendWith(LocalStackExtension.class)
class AzureBlobStoreIT {
    private static String connectionString;
    private AzureBlobStore store;

    @BeforeAll
    static void connect(LocalStack stack) {
        connectionString = stack.blobConnectionString();
    }

    @BeforeEach
    void openStore() {
        store = new AzureBlobStore(BlobStoreSettings.fromConnectionString(connectionString,
                "it-" + UUID.randomUUID()));
        store.ensureContainer();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void shouldPutGetListWithOwnersAndDelete() {
        store.putIfAbsent("shard/b", bytes("bee"), "app-consensus/shard");
        store.putIfAbsent("shard/a", bytes("a"), null);
        store.putIfAbsent("other/c", bytes("c"), null);

        assertArrayEquals(bytes("bee"), store.get("shard/b"));
        List<BlobInfo> listed = store.list("shard/");
        assertEquals(List.of("shard/a", "shard/b"), listed.stream().map(BlobInfo::key).toList());
        assertEquals(3, listed.get(1).size());
        assertEquals("app-consensus/shard", listed.get(1).owner(), "the owner is listed from the blob's metadata");
        assertEquals(null, listed.get(0).owner(), "a blob written without an owner lists none");
        assertTrue(listed.get(1).lastModified().isAfter(java.time.Instant.now().minusSeconds(600)));
        assertTrue(store.delete("shard/a"));
        assertFalse(store.delete("shard/a"));
        assertThrows(BlobNotFoundException.class, () -> store.get("shard/a"));
        assertEquals(List.of("other/c", "shard/b"), store.list("").stream().map(BlobInfo::key).toList());
    }

    @Test
    void shouldRefuseOtherBytesAtTakenKey() {
        store.putIfAbsent("k", bytes("first"), null);

        assertThrows(BlobExistsException.class, () -> store.putIfAbsent("k", bytes("second"), null));
        assertArrayEquals(bytes("first"), store.get("k"));
    }

    @Test
    void shouldAcceptSameBytesAtTakenKey() {
        store.putIfAbsent("k", bytes("same"), null);

        store.putIfAbsent("k", bytes("same"), null);

        assertArrayEquals(bytes("same"), store.get("k"));
    }

    @Test
    void shouldCountWriteRequestsAndBytes() {
        long requests = store.writeRequests();
        long bytes = store.bytesWritten();

        store.putIfAbsent("k", bytes("12345"), null);
        assertThrows(BlobExistsException.class, () -> store.putIfAbsent("k", bytes("123"), null));
        store.get("k");
        store.list("");
        store.delete("k");

        assertEquals(3, store.writeRequests() - requests);
        assertEquals(8, store.bytesWritten() - bytes);
    }

    @Test
    void shouldPutAgainAfterDelete() {
        store.putIfAbsent("k", bytes("old"), null);
        store.delete("k");

        store.putIfAbsent("k", bytes("new"), null);

        assertArrayEquals(bytes("new"), store.get("k"));
    }

    @Test
    void shouldReportWriteFailedWhenStorageIsUnreachable() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String unreachable = connectionString.replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:" + closedPort);
        try (AzureBlobStore nowhere = new AzureBlobStore(BlobStoreSettings.fromConnectionString(unreachable, "c")
                .withRetries(2, Duration.ofMillis(1), Duration.ofMillis(1)))) {
            assertThrows(BlobWriteFailedException.class, () -> nowhere.putIfAbsent("k", bytes("x"), null));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
