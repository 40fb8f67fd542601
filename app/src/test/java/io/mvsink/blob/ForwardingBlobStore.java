package io.mvsink.blob;

import java.util.List;

/**
 * A blob store that forwards every call to another; tests extend it to inject faults or hold
 * writes, overriding only what they change. Closing it does not close the store it forwards to.
 */
public abstract class ForwardingBlobStore implements BlobStore {
    protected final BlobStore delegate;

    protected ForwardingBlobStore(BlobStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        delegate.putIfAbsent(key, data, owner);
    }

    @Override
    public String location() {
        return delegate.location();
    }

    @Override
    public byte[] get(String key) {
        return delegate.get(key);
    }

    @Override
    public boolean delete(String key) {
        return delegate.delete(key);
    }

    @Override
    public List<BlobInfo> list(String prefix) {
        return delegate.list(prefix);
    }

    @Override
    public long writeRequests() {
        return delegate.writeRequests();
    }

    @Override
    public long bytesWritten() {
        return delegate.bytesWritten();
    }

    @Override
    public void close() {
    }
}
