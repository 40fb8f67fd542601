package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

class RocksMemoryTest {
    private static final long BOUND = 64L * 1024 * 1024;
    private static final int VALUE_BYTES = 1024;

    @TempDir
    Path stateDir;

    @Test
    void shouldPutAStoreUnderItsAppsCacheAndWriteBufferManager() {
        try (RocksMemory memory = RocksMemory.bounded(BOUND);
             Options options = new Options().setTableFormatConfig(new BlockBasedTableConfig())) {
            Properties props = new Properties();
            memory.configure(props);

            new BoundedRocksConfigSetter().setConfig("store", options, Map.of(RocksMemory.CONFIG_KEY, memory));

            assertEquals(BoundedRocksConfigSetter.class, props.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG));
            assertSame(memory, props.get(RocksMemory.CONFIG_KEY));
            assertSame(memory.writeBuffers(), options.writeBufferManager());
            assertEquals(RocksMemory.ARENA_BLOCK_BYTES, options.arenaBlockSize(), "memtables counted in small units");
            BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
            assertTrue(table.cacheIndexAndFilterBlocks(), "index and filter blocks count against the cache");
            assertTrue(table.cacheIndexAndFilterBlocksWithHighPriority());
            assertTrue(table.pinTopLevelIndexAndFilter());
        }
    }

    @Test
    void shouldRefuseAStoreOfAnAppWithoutItsMemory() {
        try (Options options = new Options().setTableFormatConfig(new BlockBasedTableConfig())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new BoundedRocksConfigSetter().setConfig("store", options, Map.of()));
            assertTrue(e.getMessage().contains(RocksMemory.CONFIG_KEY), e.getMessage());
        }
    }

    /**
     * Two apps in one JVM, each with its own bound: what one app's store writes is charged to that
     * app's cache (the write buffer manager reserves its memtable memory there), not to the other's.
     */
    @Test
    void shouldChargeEachAppsStoresToItsOwnCache() {
        try (RocksMemory busy = RocksMemory.bounded(BOUND);
             RocksMemory idle = RocksMemory.bounded(BOUND);
             TopologyTestDriver busyApp = app("busy", busy);
             TopologyTestDriver idleApp = app("idle", idle)) {
            long busyBefore = busy.usage();
            long idleBefore = idle.usage();
            TestInputTopic<Integer, byte[]> input = busyApp.createInputTopic("in", new IntegerSerializer(),
                new ByteArraySerializer());
            byte[] value = new byte[VALUE_BYTES];
            Arrays.fill(value, (byte) 7);
            for (int key = 0; key < 4096; key++) {
                input.pipeInput(key, value);
            }
            idleApp.createInputTopic("in", new IntegerSerializer(), new ByteArraySerializer()).pipeInput(1, value);

            // reserved in 256 KiB entries; 4 MiB of puts hold at least one MiB of memtable at any time
            assertTrue(busy.usage() - busyBefore >= 1024 * 1024, "4 MiB written to the busy app's store: its cache "
                + "grew by " + (busy.usage() - busyBefore) + " bytes");
            assertTrue(idle.usage() - idleBefore < 512 * 1024, "one record written to the idle app's store: its cache "
                + "grew by " + (idle.usage() - idleBefore) + " bytes");
        }
    }

    private TopologyTestDriver app(String id, RocksMemory memory) {
        Topology topology = new Topology();
        topology.addSource("source", Serdes.Integer().deserializer(), Serdes.ByteArray().deserializer(), "in");
        topology.addProcessor("put", Put::new, "source");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("store"),
            Serdes.Integer(), Serdes.ByteArray()).withCachingDisabled(), "put");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, id);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(id).toString());
        memory.configure(props);
        return new TopologyTestDriver(topology, props);
    }

    /** Puts each record into the store. */
    private static final class Put implements Processor<Integer, byte[], Void, Void> {
        private KeyValueStore<Integer, byte[]> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore("store");
        }

        @Override
        public void process(Record<Integer, byte[]> record) {
            store.put(record.key(), record.value());
        }
    }
}
