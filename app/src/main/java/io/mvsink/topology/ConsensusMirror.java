package io.mvsink.topology;

import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The global store's processor: mirrors the consensus topic key for key (restoration copies
 * the raw records the same way), tombstones included. It counts its writes, each after it is
 * made, so that a task reads the store again only once it has changed ({@link SealedUpper}).
 */
final class ConsensusMirror implements Processor<String, byte[], Void, Void> {
    private final String storeName;
    private final AtomicLong writes;
    private KeyValueStore<String, byte[]> store;

    /** {@code writes}: the count of the app's mirror, shared with its tasks. */
    ConsensusMirror(String storeName, AtomicLong writes) {
        this.storeName = storeName;
        this.writes = writes;
    }

    /** The shard's state as the mirrored records describe it: its rollup, if any, plus the diffs after it. */
    static ShardState state(ReadOnlyKeyValueStore<String, byte[]> mirror, String shard) {
        ShardState state = new ShardState(shard);
        List<StateDiff> diffs = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = mirror.range(ConsensusKeys.first(shard), ConsensusKeys.last(shard))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                if (ConsensusKeys.isRollup(kv.key)) {
                    state = ShardState.of(Codecs.STATE_ROLLUP.decode(kv.value));
                } else if (ConsensusKeys.seqnoOf(kv.key) > 0) {
                    diffs.add(Codecs.STATE_DIFF.decode(kv.value));
                }
            }
        }
        for (StateDiff diff : diffs) {
            if (diff.getSeqno() > state.seqno()) {
                state.apply(diff);
            }
        }
        return state;
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
        writes.incrementAndGet();
    }
}
