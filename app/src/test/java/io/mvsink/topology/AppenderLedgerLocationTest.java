package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.AppenderState;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ShardPlacementException;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The appender's ledger records where the shard's parts live and refuses to continue elsewhere. */
class AppenderLedgerLocationTest {
    private final KeyValueStore<String, byte[]> store = store("appender");
    private final KeyValueStore<String, byte[]> mirror = store("mirror");

    @Test
    void shouldRecordTheLocationOfANewShardAndRefuseAnotherNamingBoth() {
        AppenderLedger first = new AppenderLedger(store, "s", 2, "acct/chg", mirror);
        first.save();
        assertEquals("acct/chg", first.state().getLocation());
        assertEquals("acct/chg", first.model().location());

        ShardPlacementException e = assertThrows(ShardPlacementException.class,
            () -> new AppenderLedger(store, "s", 2, "acct/other", mirror));
        assertTrue(e.getMessage().contains("acct/chg") && e.getMessage().contains("acct/other")
            && e.getMessage().contains("blob.container"), e.getMessage());
    }

    @Test
    void shouldAdoptTheLocationOfAShardWhoseStateDidNotRecordOne() {
        store.put("state/s", Codecs.APPENDER_STATE.encode(new AppenderState("s", 0L, 0L, 2, List.of(), 0L, 0L, "")));
        AppenderLedger ledger = new AppenderLedger(store, "s", 2, "acct/chg", mirror);
        assertEquals("acct/chg", ledger.state().getLocation());
    }

    private static KeyValueStore<String, byte[]> store(String name) {
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name),
            Serdes.String(), Serdes.ByteArray()).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>().getStateStoreContext(), store);
        return store;
    }
}
