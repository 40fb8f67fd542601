package io.mvsink.blob;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A {@link BlobStore} in memory with the same write-once semantics and counters, for fast tests.
 * {@link #failNextWrites} injects failures. Thread-safe (one lock).
 */
public final class InMemoryBlobStore implements BlobStore {
    private record Stored(byte[] data, Instant lastModified, String owner) {
    }

    private final Clock clock;
    private final NavigableMap<String, Stored> blobs = new TreeMap<>();
    private long writeRequests;
    private long bytesWritten;
    private int failuresLeft;
    private boolean failuresMaybeWritten;

    /** A store stamping blobs with {@code clock}'s time. */
    public InMemoryBlobStore(Clock clock) {
        this.clock = clock;
    }

    /** One location for every in-memory store: a test's stores stand for one container. */
    @Override
    public String location() {
        return "memory/blobs";
    }

    /** A store stamping blobs with the system UTC clock. */
    public InMemoryBlobStore() {
        this(Clock.systemUTC());
    }

    /**
     * Makes the next {@code n} calls of {@link #putIfAbsent} fail (each counted as one request).
     * With {@code maybeWritten} the blob IS stored (if the key was free) and the call throws
     * {@link BlobMaybeWrittenException}, the worst case a caller must survive; without it nothing
     * is stored and the call throws {@link BlobWriteFailedException}.
     */
    public synchronized void failNextWrites(int n, boolean maybeWritten) {
        failuresLeft = n;
        failuresMaybeWritten = maybeWritten;
    }

    @Override
    public synchronized void putIfAbsent(String key, byte[] data, String owner) {
        writeRequests++;
        bytesWritten += data.length;
        if (failuresLeft > 0) {
            failuresLeft--;
            if (!failuresMaybeWritten) {
                throw new BlobWriteFailedException("injected failure: put of " + data.length + " bytes at " + key + " not written");
            }
            blobs.putIfAbsent(key, new Stored(data.clone(), clock.instant(), owner));
            throw new BlobMaybeWrittenException("injected failure: put of " + data.length + " bytes at " + key + " maybe written");
        }
        Stored existing = blobs.get(key);
        if (existing == null) {
            blobs.put(key, new Stored(data.clone(), clock.instant(), owner));
        } else if (!Arrays.equals(existing.data(), data)) {
            throw new BlobExistsException("put of " + data.length + " bytes at " + key + ": key already holds "
                    + existing.data().length + " other bytes");
        }
    }

    @Override
    public synchronized byte[] get(String key) {
        Stored stored = blobs.get(key);
        if (stored == null) {
            throw new BlobNotFoundException("no blob at " + key);
        }
        return stored.data().clone();
    }

    @Override
    public synchronized boolean delete(String key) {
        writeRequests++;
        return blobs.remove(key) != null;
    }

    @Override
    public synchronized List<BlobInfo> list(String prefix) {
        List<BlobInfo> found = new ArrayList<>();
        for (Map.Entry<String, Stored> e : blobs.tailMap(prefix, true).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                break;
            }
            Stored stored = e.getValue();
            found.add(new BlobInfo(e.getKey(), stored.data().length, stored.lastModified(), stored.owner()));
        }
        return found;
    }

    @Override
    public synchronized long writeRequests() {
        return writeRequests;
    }

    @Override
    public synchronized long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public void close() {
    }
}
