package io.mvsink.topology;

import io.mvsink.batch.Update;
import io.mvsink.protocol.Contributor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's consolidating store of updates not yet sealed (RocksDB, changelogged): updates
 * with the same row and time sum their diffs, and a zero sum removes the entry. Entries
 * leave only through {@link #trimBelow}, once the consensus topic shows them sealed.
 */
final class CorrectionBuffer {
    /** What an update adds to a part besides its row: time and diff (as {@code ContributionData} counts). */
    static final int UPDATE_OVERHEAD = 10;

    private final KeyValueStore<Bytes, byte[]> store;

    CorrectionBuffer(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    /**
     * Adds {@code diff} to the entry of (time, schemaId, row).
     *
     * @throws ArithmeticException if the sum overflows a long (nothing is changed)
     */
    void add(long time, int schemaId, byte[] row, long diff) {
        Bytes key = Bytes.wrap(BufferKey.encode(time, schemaId, row));
        byte[] old = store.get(key);
        long sum = old == null ? diff : Math.addExact(decode(old), diff);
        if (sum == 0) {
            if (old != null) {
                store.delete(key);
            }
        } else {
            store.put(key, ByteBuffer.allocate(8).putLong(sum).array());
        }
    }

    /** The entries with {@code lower <= time < upper}, in key order: the whole range as one chunk. */
    List<Update> range(long lower, long upper) {
        return read(lower, upper, null, Long.MAX_VALUE).updates();
    }

    /**
     * The entries with {@code lower <= time < upper} from key {@code from} (null: from {@code lower}),
     * in key order, stopping once their rows reach about {@code maxBytes}; with the key where the
     * next chunk starts (null when the range is done). The range must be closed: nothing is added
     * to it between chunks (updates arrive at or above the frontier), nothing trimmed (it is not sealed).
     */
    Contributor.Chunk read(long lower, long upper, byte[] from, long maxBytes) {
        List<Update> updates = new ArrayList<>();
        long bytes = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(from == null ? BufferKey.timeFloor(lower) : from), Bytes.wrap(BufferKey.timeFloor(upper)))) {
            while (it.hasNext()) {
                if (bytes >= maxBytes) {
                    byte[] next = it.peekNextKey().get();
                    return new Contributor.Chunk(updates, BufferKey.time(next) < upper ? next : null);
                }
                var entry = it.next();
                byte[] key = entry.key.get();
                long time = BufferKey.time(key);
                if (time >= upper) {
                    break;
                }
                Update update = new Update(time, BufferKey.schemaId(key), BufferKey.row(key), decode(entry.value));
                updates.add(update);
                bytes += update.row().length + UPDATE_OVERHEAD;
            }
        }
        return new Contributor.Chunk(updates, null);
    }

    /** Calls {@code each} with the time and the row's size of every entry (a task's start). */
    void sizes(java.util.function.BiConsumer<Long, Integer> each) {
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                byte[] key = it.next().key.get();
                each.accept(BufferKey.time(key), BufferKey.row(key).length);
            }
        }
    }

    /** Removes every entry with {@code time < upper}; returns how many. */
    int trimBelow(long upper) {
        return trimBelow(Long.MIN_VALUE, upper);
    }

    /**
     * Removes every entry with {@code from <= time < upper}, where the caller knows that none lies
     * below {@code from} (it trimmed there before, and entries below a sealed upper never come
     * back). Starting there matters: RocksDB iterators step over the tombstones of every entry
     * deleted before, until compaction, so a scan from the start of the buffer costs what the
     * buffer ever held (the top cost of a catch-up's per-update path when every trim started at
     * the beginning).
     */
    int trimBelow(long from, long upper) {
        List<Bytes> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(
                Bytes.wrap(BufferKey.timeFloor(from)), Bytes.wrap(BufferKey.timeFloor(upper)))) {
            while (it.hasNext()) {
                Bytes key = it.next().key;
                if (BufferKey.time(key.get()) >= upper) {
                    break;
                }
                keys.add(key);
            }
        }
        keys.forEach(store::delete);
        return keys.size();
    }

    long approximateEntries() {
        return store.approximateNumEntries();
    }

    private static long decode(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }
}
