package io.mvsink.read;

import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A blob store that notes the key of every blob read, for tests of when a reader reads what. */
final class ReadLog implements BlobStore {
    private final BlobStore blobs;
    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    ReadLog(BlobStore blobs) {
        this.blobs = blobs;
    }

    /** The keys read so far (a live view). */
    Set<String> keys() {
        return keys;
    }

    @Override
    public byte[] get(String key) {
        keys.add(key);
        return blobs.get(key);
    }

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        blobs.putIfAbsent(key, data, owner);
    }

    @Override
    public String location() {
        return blobs.location();
    }

    @Override
    public boolean delete(String key) {
        return blobs.delete(key);
    }

    @Override
    public List<BlobInfo> list(String prefix) {
        return blobs.list(prefix);
    }

    @Override
    public long writeRequests() {
        return blobs.writeRequests();
    }

    @Override
    public long bytesWritten() {
        return blobs.bytesWritten();
    }

    @Override
    public void close() {
        blobs.close();
    }
}
