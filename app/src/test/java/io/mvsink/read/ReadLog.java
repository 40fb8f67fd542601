package io.mvsink.read;

import io.mvsink.blob.BlobStore;
import io.mvsink.blob.ForwardingBlobStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A blob store that notes the key of every blob read, for tests of when a reader reads what. */
final class ReadLog extends ForwardingBlobStore {
    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    ReadLog(BlobStore blobs) {
        super(blobs);
    }

    /** The keys read so far (a live view). */
    Set<String> keys() {
        return keys;
    }

    @Override
    public byte[] get(String key) {
        keys.add(key);
        return super.get(key);
    }
}
