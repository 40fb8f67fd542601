package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The appender's ledger keeps the shard's grace record across restarts and moves. */
class AppenderLedgerGraceTest {
    private final KeyValueStore<String, byte[]> store = store("appender");
    private final KeyValueStore<String, byte[]> mirror = store("mirror");

    @Test
    void shouldKeepTheGraceRecordedWithAnAppendForTheNextLedgerOfTheStore() {
        AppenderLedger first = new AppenderLedger(store, "s", 2, "acct/chg", mirror);
        assertNull(first.grace());
        ShardGrace grace = new ShardGrace(120_000, 7, 1_000);

        first.recordGrace(grace);

        assertEquals(grace, first.model().grace().orElseThrow(), "the model a reader would build has it too");
        assertEquals(grace, new AppenderLedger(store, "s", 2, "acct/chg", mirror).grace());
    }

    @Test
    void shouldTakeTheGraceFromTheConsensusMirrorWhenItsStoreHasNone() {
        ShardGrace grace = new ShardGrace(1_800_000, 0, 1_000);
        mirror.put(ConsensusKeys.grace("s"), Codecs.GRACE.encode(grace.toRecord("s")));

        assertEquals(grace, new AppenderLedger(store, "s", 2, "acct/chg", mirror).grace());
    }

    private static KeyValueStore<String, byte[]> store(String name) {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
            Serdes.String(), Serdes.ByteArray()).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
