package io.mvsink.blob;

import java.util.List;

/**
 * Write-once object storage, the only room that talks to the Azure SDK.
 *
 * <p>Every write request sent to storage is counted (that is what storage bills), retries
 * included. A write that may have happened is never reported as failed-for-sure: see
 * {@link BlobWriteFailedException} and {@link BlobMaybeWrittenException}.
 */
public interface BlobStore extends AutoCloseable {

    /**
     * Metadata key of the owner every blob is written with: the state that may reference it (an
     * Azure metadata key must be a C# identifier, so no dots). The blob GC deletes only its own.
     */
    String OWNER_METADATA = "mvsinkowner";

    /**
     * Writes {@code data} at {@code key} only if no blob exists there ({@code If-None-Match: *}),
     * retrying a bounded number of times with backoff. A retry that finds the key taken by an
     * earlier attempt of this same call with the same bytes counts as success.
     *
     * @param owner stored as the blob's {@link #OWNER_METADATA} (printable ASCII); null writes a
     *     blob without an owner, as versions before owners did (only tests do so now)
     * @throws BlobWriteFailedException the blob is certainly not written
     * @throws BlobMaybeWrittenException retries ran out and the blob may or may not exist
     * @throws BlobExistsException another writer's blob (different bytes) holds the key
     */
    void putIfAbsent(String key, byte[] data, String owner);

    /**
     * Where this store's blobs live, {@code <storage account>/<container>}: recorded in the shard's state,
     * so that an app or reader pointed at another container is refused instead of missing parts.
     */
    String location();

    /** The blob's bytes; {@link BlobNotFoundException} if there is none. */
    byte[] get(String key);

    /** Deletes the blob; returns false if there was none. */
    boolean delete(String key);

    /** The blobs whose keys start with {@code prefix}, in key order, each with its owner. */
    List<BlobInfo> list(String prefix);

    /** Write requests (PUT and DELETE) sent to storage so far, retries included. */
    long writeRequests();

    /** Bytes of payload sent by write requests so far, retries included. */
    long bytesWritten();

    /**
     * Returns once the store can serve requests, or throws what stopped it from starting. A store
     * built ready returns at once; {@link StartingBlobStore} waits for its build.
     */
    default void awaitStarted() {
    }

    /** Throws what stopped the store from starting if that is already known; never waits. */
    default void throwIfStartFailed() {
    }

    @Override
    void close();
}
