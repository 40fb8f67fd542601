package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryBlobStoreTest {
    private static final Instant NOW = Instant.parse("2024-05-01T10:00:00Z");

    private final InMemoryBlobStore store = new InMemoryBlobStore(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldStoreAndReturnBytes() {
        store.putIfAbsent("a", new byte[] {1, 2}, null);

        assertArrayEquals(new byte[] {1, 2}, store.get("a"));
    }

    @Test
    void shouldNotShareArraysWithCaller() {
        byte[] data = {1};
        store.putIfAbsent("a", data, null);
        data[0] = 7;
        store.get("a")[0] = 8;

        assertArrayEquals(new byte[] {1}, store.get("a"));
    }

    @Test
    void shouldAcceptSameBytesAgain() {
        store.putIfAbsent("a", new byte[] {1}, null);

        store.putIfAbsent("a", new byte[] {1}, null);

        assertEquals(2, store.writeRequests());
    }

    @Test
    void shouldRefuseOtherBytesAtTakenKey() {
        store.putIfAbsent("a", new byte[] {1}, null);

        assertThrows(BlobExistsException.class, () -> store.putIfAbsent("a", new byte[] {2}, null));
        assertArrayEquals(new byte[] {1}, store.get("a"));
    }

    @Test
    void shouldThrowNotFoundForMissingKey() {
        assertThrows(BlobNotFoundException.class, () -> store.get("nope"));
    }

    @Test
    void shouldDeleteAndAllowPutAgain() {
        store.putIfAbsent("a", new byte[] {1}, null);

        assertTrue(store.delete("a"));
        assertFalse(store.delete("a"));
        store.putIfAbsent("a", new byte[] {2}, null);

        assertArrayEquals(new byte[] {2}, store.get("a"));
    }

    @Test
    void shouldListByPrefixInKeyOrderWithEachBlobsOwner() {
        store.putIfAbsent("s/2", new byte[] {1, 2}, "c/s");
        store.putIfAbsent("s/1", new byte[] {1}, null);
        store.putIfAbsent("t/1", new byte[] {1}, null);
        store.putIfAbsent("r", new byte[] {1}, null);

        assertEquals(List.of(new BlobInfo("s/1", 1, NOW, null), new BlobInfo("s/2", 2, NOW, "c/s")),
            store.list("s/"));
        assertEquals(4, store.list("").size());
    }

    @Test
    void shouldCountEveryWriteRequestAndPayloadByte() {
        store.putIfAbsent("a", new byte[3], null);
        assertThrows(BlobExistsException.class, () -> store.putIfAbsent("a", new byte[2], null));
        store.delete("a");

        assertEquals(3, store.writeRequests());
        assertEquals(5, store.bytesWritten());
    }

    @Test
    void shouldFailInjectedWritesWithoutStoring() {
        store.failNextWrites(2, false);

        assertThrows(BlobWriteFailedException.class, () -> store.putIfAbsent("a", new byte[] {1}, null));
        assertThrows(BlobWriteFailedException.class, () -> store.putIfAbsent("a", new byte[] {1}, null));
        assertEquals(List.of(), store.list(""));
        store.putIfAbsent("a", new byte[] {1}, null);
        assertEquals(3, store.writeRequests());
    }

    @Test
    void shouldStoreButReportMaybeWrittenForAmbiguousInjectedWrite() {
        store.failNextWrites(1, true);

        assertThrows(BlobMaybeWrittenException.class, () -> store.putIfAbsent("a", new byte[] {1}, null));
        assertArrayEquals(new byte[] {1}, store.get("a"));
    }
}
