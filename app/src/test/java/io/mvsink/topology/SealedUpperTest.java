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
