package io.mvsink.blob;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A blob store still being built on a thread of its own (the Azure SDK's classes and the container
 * check take about a second), so that the app's start prepares its Kafka topics meanwhile. Every
 * request waits for the build and fails with what stopped it; {@link #awaitStarted} does so
 * explicitly, {@link #throwIfStartFailed} without waiting (docs/ARCHITECTURE.md, "Start-up").
 */
public final class StartingBlobStore implements BlobStore {
    private final CompletableFuture<BlobStore> store;

    private StartingBlobStore(CompletableFuture<BlobStore> store) {
        this.store = store;
    }

    /** Starts {@code build} on a daemon thread named {@code mvsink-blob-start}. */
    public static StartingBlobStore start(Supplier<? extends BlobStore> build) {
        CompletableFuture<BlobStore> store = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                store.complete(build.get());
            } catch (Throwable e) {
                store.completeExceptionally(e);
            }
        }, "mvsink-blob-start");
        thread.setDaemon(true);
        thread.start();
        return new StartingBlobStore(store);
    }

    @Override
    public void awaitStarted() {
        started();
    }

    @Override
    public void throwIfStartFailed() {
        if (store.isCompletedExceptionally()) {
            started();
        }
    }

    private BlobStore started() {
        try {
            return store.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new BlobException("the blob store did not start: " + cause, cause);
        }
    }

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        started().putIfAbsent(key, data, owner);
    }

    @Override
    public String location() {
        return started().location();
    }

    @Override
    public byte[] get(String key) {
        return started().get(key);
    }

    @Override
    public boolean delete(String key) {
        return started().delete(key);
    }

    @Override
    public List<BlobInfo> list(String prefix) {
        return started().list(prefix);
    }

    @Override
    public long writeRequests() {
        BlobStore ready = store.getNow(null);
        return ready == null ? 0 : ready.writeRequests();
    }

    @Override
    public long bytesWritten() {
        BlobStore ready = store.getNow(null);
        return ready == null ? 0 : ready.bytesWritten();
    }

    /** Closes the store once built (a build still running is waited for); a failed build has nothing to close. */
    @Override
    public void close() {
        BlobStore ready;
        try {
            ready = store.join();
        } catch (CompletionException e) {
            return;
        }
        ready.close();
    }

    @Override
    public String toString() {
        BlobStore ready = store.getNow(null);
        return ready == null ? "StartingBlobStore[starting]" : ready.toString();
    }
}
