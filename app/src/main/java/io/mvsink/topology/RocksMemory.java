package io.mvsink.topology;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB memory of one Kafka Streams app: one block cache and one write buffer manager that
 * every RocksDB store of the app shares, so that the app's RocksDB memory is about
 * {@code totalBytes} however many partitions (stores) it runs. Without it each store has Kafka
 * Streams' own defaults: a 50 MiB block cache and up to 3 x 16 MiB memtables, per store (3 per
 * corrections partition, 2 more), which a container running many partitions cannot hold.
 *
 * <p>This is Kafka Streams' documented {@code BoundedMemoryRocksDBConfig}, with one change: the
 * shared objects belong to one app, not to the JVM (a static field), so that two apps in one JVM
 * (as tests run them) each have their own bound. Kafka Streams creates its config setter by
 * reflection, so the instance travels to {@link BoundedRocksConfigSetter} in the app's configs
 * under {@link #CONFIG_KEY} ({@link #configure}). The app closes it after its
 * {@code KafkaStreams} has closed; a store's close leaves it alone.
 *
 * <p>Sizing: the cache holds {@code totalBytes}, not strictly (a strict cache fails reads when
 * pinned blocks fill it); the memtables are charged to it, up to half of it, so blocks and
 * memtables share one budget. Index and filter blocks live in the cache too (high priority, the
 * top level pinned), so they are bounded as well. Each store keeps Kafka Streams' memtable size
 * and count: smaller memtables would flush, and compact, more often for no saving the shared
 * budget does not already give.
 */
public final class RocksMemory implements AutoCloseable {
    /** The key of the app's configs that carries the app's instance to its stores' config setter. */
    public static final String CONFIG_KEY = "mvsink.rocksdb.memory";
    /** The share of the cache kept for index and filter blocks (high priority). */
    static final double INDEX_FILTER_SHARE = 0.1;
    /**
     * A memtable's allocation unit. RocksDB's default is 1 MiB for Kafka Streams' 16 MiB memtables,
     * and the write buffer manager counts what is allocated, not what is written: 194 stores (64
     * partitions) each with a few KiB in its memtable count ~220 MiB, over the memtables' share of
     * the default bound, so it flushes some store's memtable at nearly every write (bench --scenario
     * memory: 1.4x the CPU of the unbounded run and 100 more files; docs/BENCH.md, "memory").
     */
    static final long ARENA_BLOCK_BYTES = 64 * 1024;

    private final long totalBytes;
    private final Cache cache;
    private final WriteBufferManager writeBuffers;

    private RocksMemory(long totalBytes) {
        RocksDB.loadLibrary();
        this.totalBytes = totalBytes;
        this.cache = new LRUCache(totalBytes, -1, false, INDEX_FILTER_SHARE);
        this.writeBuffers = new WriteBufferManager(memtableBytes(totalBytes), cache);
    }

    /** A budget of {@code totalBytes} for all the RocksDB stores of one app. */
    public static RocksMemory bounded(long totalBytes) {
        if (totalBytes <= 0) {
            throw new IllegalArgumentException("a RocksDB memory bound must be positive: " + totalBytes);
        }
        return new RocksMemory(totalBytes);
    }

    /** The memtables' share of {@code totalBytes}. */
    static long memtableBytes(long totalBytes) {
        return totalBytes / 2;
    }

    /** Sets Kafka Streams' {@code rocksdb.config.setter} of the app whose properties these are to this instance. */
    public void configure(Map<Object, Object> streamsProps) {
        streamsProps.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksConfigSetter.class);
        streamsProps.put(CONFIG_KEY, this);
    }

    long totalBytes() {
        return totalBytes;
    }

    /** Block cache bytes in use (memtable reservations included). */
    long usage() {
        return cache.getUsage();
    }

    WriteBufferManager writeBuffers() {
        return writeBuffers;
    }

    /** Shares the cache and the write buffer manager with the store whose options these are. */
    void apply(Options options) {
        if (!(options.tableFormatConfig() instanceof BlockBasedTableConfig table)) {
            throw new IllegalStateException("a RocksDB store without a block-based table config: "
                + options.tableFormatConfig());
        }
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(writeBuffers);
        options.setArenaBlockSize(ARENA_BLOCK_BYTES);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close() {
        writeBuffers.close();
        cache.close();
    }
}
