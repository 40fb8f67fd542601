package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartingBlobStoreTest {

    @Test
    void shouldServeRequestsOnceBuiltAndCloseTheBuiltStore() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        InMemoryBlobStore inner = new InMemoryBlobStore();
        StartingBlobStore store = StartingBlobStore.start(() -> {
            await(release);
            return inner;
        });

        assertDoesNotThrow(store::throwIfStartFailed, "a build still running is not a failure");
        assertEquals(0, store.writeRequests(), "nothing written before the build");
        release.countDown();
        store.putIfAbsent("k", new byte[] {1, 2}, "o");

        assertArrayEquals(new byte[] {1, 2}, inner.get("k"));
        assertEquals(inner.location(), store.location());
        assertEquals(1, store.writeRequests());
        store.close();
    }

    @Test
    void shouldThrowWhatStoppedTheBuildFromEveryRequest() throws Exception {
        BlobUnavailableException refused = new BlobUnavailableException("create container at http://x: could not connect", null);
        StartingBlobStore store = StartingBlobStore.start(() -> {
            throw refused;
        });

        assertSame(refused, assertThrows(BlobUnavailableException.class, store::awaitStarted));
        assertSame(refused, assertThrows(BlobUnavailableException.class, store::throwIfStartFailed));
        assertSame(refused, assertThrows(BlobUnavailableException.class, () -> store.get("k")));
        assertDoesNotThrow(store::close, "a failed build has nothing to close");
    }

    @Test
    void shouldNotWaitForABuildWhenAskedOnlyWhetherItFailed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        StartingBlobStore store = StartingBlobStore.start(() -> {
            await(release);
            throw new BlobException("late failure");
        });
        long start = System.nanoTime();
        store.throwIfStartFailed();
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 5, "returned without waiting");
        release.countDown();
        assertThrows(BlobException.class, store::awaitStarted);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
