package io.mvsink.topology;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the correction buffer: Kafka Streams' own changelogged key-value store (metered, logged,
 * uncached) with the {@link CorrectionBuffer} as its outermost layer, which Kafka Streams
 * registers and flushes before each commit.
 */
final class CorrectionBufferBuilder implements StoreBuilder<CorrectionBuffer> {
    private final StoreBuilder<KeyValueStore<Bytes, byte[]>> inner;
    private final long width;
    private final int blockLimit;

    CorrectionBufferBuilder(KeyValueBytesStoreSupplier supplier, long width) {
        this(supplier, width, CorrectionBuffer.BLOCK_LIMIT);
    }

    /** {@code blockLimit}: the largest block value ({@link CorrectionBuffer#BLOCK_LIMIT} or the producer's smaller bound). */
    CorrectionBufferBuilder(KeyValueBytesStoreSupplier supplier, long width, int blockLimit) {
        this.inner = Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray());
        this.width = width;
        this.blockLimit = blockLimit;
    }

    /** The buffer adds its own commit-time batching: a record cache underneath would only copy. */
    @Override
    public StoreBuilder<CorrectionBuffer> withCachingEnabled() {
        throw new UnsupportedOperationException("the correction buffer batches its writes itself");
    }

    @Override
    public StoreBuilder<CorrectionBuffer> withCachingDisabled() {
        inner.withCachingDisabled();
        return this;
    }

    @Override
    public StoreBuilder<CorrectionBuffer> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<CorrectionBuffer> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public CorrectionBuffer build() {
        return new CorrectionBuffer(inner.build(), width, blockLimit);
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
