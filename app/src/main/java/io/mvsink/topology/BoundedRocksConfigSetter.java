package io.mvsink.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.Options;

/**
 * Kafka Streams' {@code rocksdb.config.setter} that puts each RocksDB store of an app under the
 * app's {@link RocksMemory}, found in the app's configs under {@link RocksMemory#CONFIG_KEY}.
 * Kafka Streams creates one per store, by reflection (hence public, with a no-argument constructor).
 */
public final class BoundedRocksConfigSetter implements RocksDBConfigSetter {
    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        if (!(configs.get(RocksMemory.CONFIG_KEY) instanceof RocksMemory memory)) {
            throw new IllegalStateException("store " + storeName + ": no " + RocksMemory.class.getSimpleName()
                + " under " + RocksMemory.CONFIG_KEY + " in the app's configs (set it with RocksMemory.configure)");
        }
        memory.apply(options);
    }

    /** The cache and write buffer manager are the app's, shared by its other stores: the app closes them. */
    @Override
    public void close(String storeName, Options options) {
    }
}
