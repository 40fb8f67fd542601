package io.mvsink.topology;

import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** In-memory key-value stores for unit tests of one store's user, outside a topology. */
final class TestStores {
    private TestStores() {
    }

    static <K> KeyValueStore<K, byte[]> inMemory(String name, Serde<K> keys) {
        KeyValueStore<K, byte[]> store = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(name), keys, Serdes.ByteArray())
            .withLoggingDisabled()
            .build();
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, name + "-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        config.put("processing.exception.handler.global.enabled", "true"); // quiets a deprecation warning
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(config);
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    /** A new store holding what {@code store} holds now: its state as of a commit. */
    static KeyValueStore<Integer, byte[]> copyOf(KeyValueStore<Integer, byte[]> store, String name) {
        KeyValueStore<Integer, byte[]> copy = inMemory(name, Serdes.Integer());
        try (KeyValueIterator<Integer, byte[]> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<Integer, byte[]> entry = all.next();
                copy.put(entry.key, entry.value);
            }
        }
        return copy;
    }
}
