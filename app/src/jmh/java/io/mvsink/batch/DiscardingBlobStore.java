package io.mvsink.batch;

import io.mvsink.blob.BlobNotFoundException;
import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobStore;
import java.util.List;

/** A blob store that counts writes and throws the bytes away: the builder's cost without storage's. */
final class DiscardingBlobStore implements BlobStore {
    private long writes;
    private long bytes;

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        writes++;
        bytes += data.length;
    }

    @Override
    public String location() {
        return "discarding/blobs";
    }

    @Override
    public byte[] get(String key) {
        throw new BlobNotFoundException("discarding store keeps nothing: " + key);
    }

    @Override
    public boolean delete(String key) {
        return false;
    }

    @Override
    public List<BlobInfo> list(String prefix) {
        return List.of();
    }

    @Override
    public long writeRequests() {
        return writes;
    }

    @Override
    public long bytesWritten() {
        return bytes;
    }

    @Override
    public void close() {
    }
}
