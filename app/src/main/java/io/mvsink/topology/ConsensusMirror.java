package io.mvsink.topology;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The global store's processor: mirrors the consensus topic key for key (restoration copies
 * the raw records the same way), tombstones included.
 */
final class ConsensusMirror implements Processor<String, byte[], Void, Void> {
    private final String storeName;
    private KeyValueStore<String, byte[]> store;

    ConsensusMirror(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
    }
}
