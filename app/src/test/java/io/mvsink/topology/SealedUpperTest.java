package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.avro.GraceRecord;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardGrace;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

/** A task's view of the sealed upper from the global store that mirrors the consensus topic. */
class SealedUpperTest {
    private static final String SHARD = "orders";

    /**
     * The appender writes the shard's grace record and its first diff in one transaction, but the
     * global store applies them one at a time: a task can read the grace record alone. Its key sorts
     * inside the shard's range, before the rollup and every diff; before this test the task decoded
     * it as a diff and stopped with {@code CorruptRecordException: cannot decode StateDiff}.
     */
    @Test
    void shouldReadNoUpperFromTheGraceRecordAloneAndTheDiffsUpperOnceItArrives() {
        TreeMap<String, byte[]> mirror = new TreeMap<>();
        SealedUpper sealed = new SealedUpper(new MapStore(mirror), SHARD);
        mirror.put(ConsensusKeys.grace(SHARD), Codecs.GRACE.encode(grace()));

        assertEquals(0, sealed.get());

        mirror.put(ConsensusKeys.diff(SHARD, 1), Codecs.STATE_DIFF.encode(diff(1, 0, 4_000)));
        assertEquals(4_000, sealed.get());
        mirror.put(ConsensusKeys.diff(SHARD, 2), Codecs.STATE_DIFF.encode(diff(2, 4_000, 9_000)));
        assertEquals(9_000, sealed.get());
    }

    @Test
    void shouldReadTheStoreAgainOnlyOnceTheMirrorHasWritten() {
        TreeMap<String, byte[]> mirror = new TreeMap<>();
        MapStore store = new MapStore(mirror);
        AtomicLong writes = new AtomicLong();
        AtomicInteger reads = new AtomicInteger();
        SealedUpper sealed = new SealedUpper(new CountingStore(store, reads), SHARD, writes::get);
        mirror.put(ConsensusKeys.diff(SHARD, 1), Codecs.STATE_DIFF.encode(diff(1, 0, 4_000)));
        writes.incrementAndGet();

        assertEquals(4_000, sealed.get());
        assertEquals(4_000, sealed.get());
        assertEquals(1, reads.get(), "no write since the first read: the second ask is answered as kept");

        mirror.put(ConsensusKeys.diff(SHARD, 2), Codecs.STATE_DIFF.encode(diff(2, 4_000, 9_000)));
        assertEquals(4_000, sealed.get(), "a write the count does not show yet is not read: the answer lags, never leads");
        writes.incrementAndGet();
        assertEquals(9_000, sealed.get());
        assertEquals(2, reads.get());
    }

    /** Counts the reverse range reads of the store underneath. */
    private record CountingStore(MapStore store, AtomicInteger reads) implements ReadOnlyKeyValueStore<String, byte[]> {
        @Override
        public byte[] get(String key) {
            return store.get(key);
        }

        @Override
        public KeyValueIterator<String, byte[]> range(String from, String to) {
            return store.range(from, to);
        }

        @Override
        public KeyValueIterator<String, byte[]> reverseRange(String from, String to) {
            reads.incrementAndGet();
            return store.reverseRange(from, to);
        }

        @Override
        public KeyValueIterator<String, byte[]> all() {
            return store.all();
        }

        @Override
        public long approximateNumEntries() {
            return store.approximateNumEntries();
        }
    }

    private static GraceRecord grace() {
        return ShardGrace.next(null, 600_000, 1_000).toRecord(SHARD);
    }

    private static StateDiff diff(long seqno, long lower, long upper) {
        return StateDiff.newBuilder().setShard(SHARD).setSeqno(seqno).setLower(lower).setUpper(upper)
            .setPartitionCount(4).setAdded(List.of()).setAppendedAtMs(1_000).build();
    }

    /** A read-only store over a sorted map, as the global store is over RocksDB. */
    private record MapStore(NavigableMap<String, byte[]> map) implements ReadOnlyKeyValueStore<String, byte[]> {
        @Override
        public byte[] get(String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, byte[]> range(String from, String to) {
            return iterator(map.subMap(from, true, to, true).entrySet().iterator());
        }

        @Override
        public KeyValueIterator<String, byte[]> reverseRange(String from, String to) {
            return iterator(map.subMap(from, true, to, true).descendingMap().entrySet().iterator());
        }

        @Override
        public KeyValueIterator<String, byte[]> all() {
            return iterator(map.entrySet().iterator());
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        private static KeyValueIterator<String, byte[]> iterator(Iterator<Map.Entry<String, byte[]>> entries) {
            return new KeyValueIterator<>() {
                @Override
                public boolean hasNext() {
                    return entries.hasNext();
                }

                @Override
                public KeyValue<String, byte[]> next() {
                    Map.Entry<String, byte[]> e = entries.next();
                    return KeyValue.pair(e.getKey(), e.getValue());
                }

                @Override
                public String peekNextKey() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
