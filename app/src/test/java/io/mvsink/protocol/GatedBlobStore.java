package io.mvsink.protocol;

import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.blob.InMemoryBlobStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link InMemoryBlobStore} whose writes can be held at a gate, so a test can keep a builder
 * thread busy writing while other contributions arrive. Writes wait at most 30 s, then fail.
 */
final class GatedBlobStore extends ForwardingBlobStore {
    final InMemoryBlobStore store;
    private final AtomicInteger writesStarted = new AtomicInteger();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile Error nextError;

    GatedBlobStore() {
        this(new InMemoryBlobStore());
    }

    private GatedBlobStore(InMemoryBlobStore store) {
        super(store);
        this.store = store;
    }

    /** Writes from now on wait until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    /** The next write throws {@code error} (an Error, not an exception: a builder thread's worst case). */
    void throwOnNextWrite(Error error) {
        nextError = error;
    }

    /** Writes that entered {@link #putIfAbsent}, held or not. */
    int writesStarted() {
        return writesStarted.get();
    }

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        writesStarted.incrementAndGet();
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate of " + key + " never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at the gate of " + key, e);
        }
        Error error = nextError;
        if (error != null) {
            nextError = null;
            throw error;
        }
        store.putIfAbsent(key, data, owner);
    }

    @Override
    public void close() {
        release();
    }
}
