package io.mvsink.topology;

import io.mvsink.batch.Update;
import io.mvsink.protocol.Contributor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A task's store of updates not yet sealed (RocksDB, changelogged), kept as <em>blocks</em>: the
 * updates a task receives between two commits are consolidated in memory (same row and time sum
 * their diffs, a zero sum drops the entry) and written, when Kafka Streams commits the task, as one
 * store entry per grid interval they touch, or several of at most {@link #BLOCK_LIMIT} bytes each
 * (less where the producer's requests are smaller). A block is one RocksDB put and one changelog record for
 * all of them, and once the shard's upper is past it one delete and one tombstone, where an entry
 * per update cost a get, a put and a changelog record when it arrived and a delete and a tombstone
 * when it was sealed (the gap to a plain Kafka Streams app in a catch-up, docs/ARCHITECTURE.md).
 *
 * <p>The commit hook is Kafka Streams' own for its record caches: this store is the outermost
 * layer of the buffer's store (a {@link WrappedStateStore}, as its caching layer is), and the task
 * flushes it ({@link #flushCache}) before it commits its transaction, so a committed input offset
 * always has its updates in the changelog; a task closed dirty drops them ({@link #clearCache})
 * with the transaction that would have held them. Reading a range writes the pending updates
 * first, so reads always see every update added.
 *
 * <p>Reading consolidates again across the blocks of the range it returns, so a contribution holds
 * one entry per row and time; a chunk (a streamed piece of a large range) is cut between grid
 * intervals where it can, and an interval larger than two chunks is the one case where one row
 * and time can be in two chunks (their diffs still sum right; readers consolidate). A sum that
 * would overflow a long is left as two entries, never refused: the buffer's content stays a
 * function of the partition's input, whatever the commits' timing.
 *
 * <p>Keys: a block is {@code [interval start (8 bytes, as BufferKey's time)][0xFFFFFFFF][sequence
 * (8 bytes)]}, its value {@code [entries (int)][largest time (long)]} then per entry
 * {@code [time (long)][schema id (int)][diff (long)][row length (int)][row]}. Entries of earlier
 * versions ({@link BufferKey}: one update per key, value the diff) are read and trimmed alike, so a
 * buffer written before blocks is carried on unchanged.
 */
final class CorrectionBuffer extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]> {
    /** What an update adds to a part besides its row: time and diff (as {@code ContributionData} counts). */
    static final int UPDATE_OVERHEAD = 10;
    /** Pending updates are written as blocks once they reach these bytes, whatever the commit interval. */
    static final long PENDING_LIMIT = 1 << 20;
    /**
     * A block's value holds at most this many bytes (but always one entry): a block is one store entry
     * and one changelog record, which must stay below the producer's {@code max.request.size} and the
     * changelog topic's {@code max.message.bytes} (1 MiB by default), with room for its key and the
     * record batch around it.
     */
    static final int BLOCK_LIMIT = 512 * 1024;

    private static final int BLOCK_MARK = -1;
    private static final int BLOCK_KEY = BufferKey.HEADER + 8;
    private static final int BLOCK_HEADER = 12;
    private static final int ENTRY_HEADER = 24;
    /** Pending entries are at most 2^20 (a 1 MiB bound at 24 bytes each and more), packed with their time. */
    private static final int INDEX_BITS = 20;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    private final long width;
    private final int blockLimit;
    /** Updates since the last write, consolidated; hashed on add, sorted by time once when written (a tree cost a search per add). */
    private final HashMap<EntryKey, long[]> pending = new HashMap<>();
    private long pendingBytes;
    /** At most the earliest time pending (a lower bound: a removal does not raise it). */
    private long pendingEarliest = Long.MAX_VALUE;
    private long nextSequence = -1;
    private long entries;

    /** A buffer whose blocks hold at most {@link #BLOCK_LIMIT} bytes. */
    CorrectionBuffer(KeyValueStore<Bytes, byte[]> store, long width) {
        this(store, width, BLOCK_LIMIT);
    }

    /**
     * @param store the changelogged key-value store underneath
     * @param width the grid's interval width: a block holds the updates of one interval
     * @param blockLimit a block's value holds at most this many bytes, but always one entry
     */
    CorrectionBuffer(KeyValueStore<Bytes, byte[]> store, long width, int blockLimit) {
        super(store);
        if (width <= 0) {
            throw new IllegalArgumentException("interval width must be positive: " + width);
        }
        if (blockLimit <= 0) {
            throw new IllegalArgumentException("the block limit must be positive: " + blockLimit);
        }
        this.width = width;
        this.blockLimit = blockLimit;
    }

    /** Adds {@code diff} to the pending entry of (time, schemaId, row); {@code row} is kept as given, never changed after. */
    void add(long time, int schemaId, byte[] row, long diff) {
        if (diff == 0) {
            return;
        }
        EntryKey key = new EntryKey(time, schemaId, row);
        // one lookup for a new entry (most are, behind a backlog), not a get and then a put
        long[] sum = pending.putIfAbsent(key, new long[] {diff});
        if (sum == null) {
            pendingBytes += row.length + ENTRY_HEADER;
            pendingEarliest = Math.min(pendingEarliest, time);
        } else {
            long total = sum[0] + diff;
            if (((sum[0] ^ total) & (diff ^ total)) < 0) {
                // overflow: the entry so far goes to a block of its own, this diff starts the next
                writePending();
                pending.put(key, new long[] {diff});
                pendingBytes += row.length + ENTRY_HEADER;
                pendingEarliest = time;
            } else if (total == 0) {
                pending.remove(key);
                pendingBytes -= row.length + ENTRY_HEADER;
            } else {
                sum[0] = total;
            }
        }
        if (pendingBytes >= PENDING_LIMIT) {
            writePending();
        }
    }

    /** A store (re)opened for a task starts from what the changelog holds: nothing pending. */
    @Override
    public void init(StateStoreContext context, StateStore root) {
        dropPending();
        nextSequence = -1;
        entries = 0;
        super.init(context, root);
    }

    /** Kafka Streams flushes the task's stores before it commits: the pending updates go to the store. */
    @Override
    public void flushCache() {
        writePending();
        super.flushCache();
    }

    /** A task closed dirty (or revived) forgets what it did not commit. */
    @Override
    public void clearCache() {
        dropPending();
        super.clearCache();
    }

    @Override
    public void close() {
        dropPending();
        nextSequence = -1;
        super.close();
    }

    /** The entries with {@code lower <= time < upper}, consolidated, in time order: the whole range as one chunk. */
    List<Update> range(long lower, long upper) {
        return read(lower, upper, null, Long.MAX_VALUE).updates();
    }

    /**
     * The entries with {@code lower <= time < upper} from key {@code from} (null: from {@code lower}),
     * consolidated, in time order, stopping between grid intervals once their rows reach about
     * {@code maxBytes} (inside an interval at twice that); with the key where the next chunk starts
     * (null when the range is done). The range must be closed: nothing is added to it between chunks
     * (updates arrive at or above the frontier), nothing trimmed (it is not sealed).
     */
    Contributor.Chunk read(long lower, long upper, byte[] from, long maxBytes) {
        writePending();
        CellReader chunk = new CellReader(lower, upper);
        long lastCell = 0;
        boolean any = false;
        byte[] start = from == null ? BufferKey.timeFloor(cellOf(lower)) : from;
        try (KeyValueIterator<Bytes, byte[]> it = store().range(Bytes.wrap(start), Bytes.wrap(BufferKey.timeFloor(upper)))) {
            while (it.hasNext()) {
                byte[] key = it.peekNextKey().get();
                long keyTime = BufferKey.time(key);
                if (keyTime >= upper) {
                    break;
                }
                long cell = cellOf(keyTime);
                if (any && cell != lastCell) {
                    chunk.endCell();
                }
                if (any && chunk.bytes() >= maxBytes && (cell != lastCell || chunk.bytes() >= 2 * maxBytes)) {
                    return new Contributor.Chunk(chunk.updates(), key);
                }
                byte[] value = it.next().value;
                lastCell = cell;
                any = true;
                chunk.add(key, value);
            }
        }
        return new Contributor.Chunk(chunk.updates(), null);
    }

    /**
     * A chunk's updates, consolidated one grid interval (cell) at a time: the stored entries of a cell
     * hold no time of another, so consolidating within cells consolidates the chunk, and the cells come
     * in time order. A cell stored as one block (the usual case: a cell's updates arrive between two
     * writes) is already consolidated and in time order (one entry per row and time, none zero: {@link
     * #writePending}), and is decoded as it is; a cell of several entries is consolidated.
     */
    private final class CellReader {
        private final long lower;
        private final long upper;
        private final List<Update> out = new ArrayList<>();
        private final List<byte[]> keys = new ArrayList<>(2);
        private final List<byte[]> values = new ArrayList<>(2);
        private long bytes;

        CellReader(long lower, long upper) {
            this.lower = lower;
            this.upper = upper;
        }

        void add(byte[] key, byte[] value) {
            keys.add(key);
            values.add(value);
            bytes += bytesIn(key, value);
        }

        /** The rows' bytes read so far (as {@code ContributionData} counts them), before consolidation. */
        long bytes() {
            return bytes;
        }

        /** The bytes of the updates in {@code [lower, upper)} that one stored entry holds, read without copying rows. */
        private long bytesIn(byte[] key, byte[] value) {
            if (!isBlock(key)) {
                long time = BufferKey.time(key);
                return time >= lower && time < upper ? key.length - BufferKey.HEADER + UPDATE_OVERHEAD : 0;
            }
            ByteBuffer in = ByteBuffer.wrap(value);
            int count = in.getInt();
            int position = BLOCK_HEADER;
            long total = 0;
            for (int i = 0; i < count; i++) {
                long time = in.getLong(position);
                int length = in.getInt(position + ENTRY_HEADER - 4);
                if (time >= lower && time < upper) {
                    total += length + UPDATE_OVERHEAD;
                }
                position += ENTRY_HEADER + length;
            }
            return total;
        }

        void endCell() {
            if (keys.size() == 1 && isBlock(keys.get(0))) {
                forEach(keys.get(0), values.get(0), (time, schemaId, row, diff) -> {
                    if (time >= lower && time < upper) {
                        out.add(new Update(time, schemaId, row, diff));
                    }
                });
            } else if (!keys.isEmpty()) {
                Consolidation cell = new Consolidation();
                for (int i = 0; i < keys.size(); i++) {
                    cell.addAll(keys.get(i), values.get(i), lower, upper);
                }
                out.addAll(cell.updates());
            }
            keys.clear();
            values.clear();
        }

        List<Update> updates() {
            endCell();
            return out;
        }
    }

    /**
     * Calls {@code each} with the time and the row's size of every stored update (a task's start);
     * the same pass finds where the block sequence goes on.
     */
    void sizes(java.util.function.BiConsumer<Long, Integer> each) {
        writePending();
        long count = 0;
        long largest = -1;
        try (KeyValueIterator<Bytes, byte[]> it = store().all()) {
            while (it.hasNext()) {
                var entry = it.next();
                byte[] key = entry.key.get();
                if (isBlock(key)) {
                    largest = Math.max(largest, sequence(key));
                }
                count += forEach(key, entry.value, (time, schemaId, row, diff) -> each.accept(time, row.length));
            }
        }
        entries = count;
        nextSequence = Math.max(nextSequence, largest + 1);
    }

    /** Removes every update with {@code time < upper}; returns how many. */
    int trimBelow(long upper) {
        return trimBelow(Long.MIN_VALUE, upper);
    }

    /**
     * Removes every update with {@code from <= time < upper}, where the caller knows that none lies
     * below {@code from} (it trimmed there before, and updates below a sealed upper never come
     * back). A block goes once all of its updates are below {@code upper}. Starting there matters:
     * RocksDB iterators step over the tombstones of every entry deleted before, until compaction.
     */
    int trimBelow(long from, long upper) {
        List<Bytes> keys = new ArrayList<>();
        // none in practice (a task contributes, so writes, a range before it can be sealed), but the contract holds
        int before = pending.size();
        if (pendingEarliest < upper) {
            pending.keySet().removeIf(key -> key.time() < upper);
        }
        int removedPending = before - pending.size();
        int removed = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store().range(
                Bytes.wrap(BufferKey.timeFloor(cellOf(from))), Bytes.wrap(BufferKey.timeFloor(upper)))) {
            while (it.hasNext()) {
                var entry = it.next();
                byte[] key = entry.key.get();
                if (BufferKey.time(key) >= upper) {
                    break;
                }
                if (!isBlock(key)) {
                    keys.add(entry.key);
                    removed++;
                } else if (BufferKey.readLong(entry.value, 4) < upper) {
                    keys.add(entry.key);
                    removed += BufferKey.readInt(entry.value, 0);
                }
            }
        }
        keys.forEach(store()::delete);
        entries = Math.max(0, entries - removed);
        return removed + removedPending;
    }

    /** Updates held, stored and pending (before consolidation across blocks, so approximate). */
    long approximateEntries() {
        return entries + pending.size();
    }

    private KeyValueStore<Bytes, byte[]> store() {
        return wrapped();
    }

    /** The start of the grid interval holding {@code time} (the lowest one for times below it). */
    private long cellOf(long time) {
        long offset = Math.floorMod(time, width);
        return time < Long.MIN_VALUE + offset ? Long.MIN_VALUE : time - offset;
    }

    private void writePending() {
        if (pending.isEmpty()) {
            return;
        }
        if (nextSequence < 0) {
            nextSequence = largestSequence() + 1;
        }
        List<Pending> sorted = inTimeOrder();
        List<Pending> block = new ArrayList<>();
        long cell = 0;
        long blockBytes = BLOCK_HEADER;
        for (Pending e : sorted) {
            long entryCell = cellOf(e.time());
            int entryBytes = ENTRY_HEADER + e.key().row.length;
            if (!block.isEmpty() && (entryCell != cell || blockBytes + entryBytes > blockLimit)) {
                // a cell may have several blocks (as after several commits): reads consolidate across them
                writeBlock(cell, block);
                block.clear();
                blockBytes = BLOCK_HEADER;
            }
            cell = entryCell;
            block.add(e);
            blockBytes += entryBytes;
        }
        writeBlock(cell, block);
        entries += pending.size();
        dropPending();
    }

    /**
     * The pending updates in time order (cells in time order, each cell's block by time), those of one
     * time in the map's order. A sort by the whole key spent 10% of a wide catch-up's samples comparing
     * rows, and a comparator on the time still 4%: the times are packed with their index
     * ({@code (time - earliest) << INDEX_BITS | index}) and sorted as primitives, unless they span
     * too much or are too many to pack.
     */
    private List<Pending> inTimeOrder() {
        int n = pending.size();
        Pending[] all = new Pending[n];
        long earliest = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;
        int i = 0;
        for (Map.Entry<EntryKey, long[]> e : pending.entrySet()) {
            Pending p = new Pending(e.getKey(), e.getValue()[0]);
            all[i++] = p;
            earliest = Math.min(earliest, p.time());
            latest = Math.max(latest, p.time());
        }
        long span = latest - earliest;
        if (n > INDEX_MASK + 1 || (span >>> (Long.SIZE - 1 - INDEX_BITS)) != 0) {
            // a span that overflowed is negative, so refused here too
            List<Pending> sorted = Arrays.asList(all);
            sorted.sort(Pending.BY_TIME);
            return sorted;
        }
        long[] packed = new long[n];
        for (i = 0; i < n; i++) {
            packed[i] = ((all[i].time() - earliest) << INDEX_BITS) | i;
        }
        Arrays.sort(packed);
        List<Pending> sorted = new ArrayList<>(n);
        for (long p : packed) {
            sorted.add(all[(int) (p & INDEX_MASK)]);
        }
        return sorted;
    }

    /**
     * What consolidates: an update's time, schema id and row, the row held as the caller gave it (not
     * copied into an encoded key), hashed once.
     */
    private static final class EntryKey {
        private final long time;
        private final int schemaId;
        private final byte[] row;
        private final int hash;

        EntryKey(long time, int schemaId, byte[] row) {
            this.time = time;
            this.schemaId = schemaId;
            this.row = row;
            this.hash = 31 * (31 * Long.hashCode(time) + schemaId) + Arrays.hashCode(row);
        }

        long time() {
            return time;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof EntryKey k && k.hash == hash && k.time == time && k.schemaId == schemaId
                && Arrays.equals(k.row, row);
        }
    }

    /** A pending update as written. */
    private record Pending(EntryKey key, long diff) {
        static final Comparator<Pending> BY_TIME = Comparator.comparingLong(Pending::time);

        long time() {
            return key.time;
        }
    }

    private void writeBlock(long cell, List<Pending> block) {
        int size = BLOCK_HEADER;
        long largest = Long.MIN_VALUE;
        for (Pending e : block) {
            size += ENTRY_HEADER + e.key().row.length;
            largest = Math.max(largest, e.time());
        }
        ByteBuffer value = ByteBuffer.allocate(size).putInt(block.size()).putLong(largest);
        for (Pending e : block) {
            EntryKey key = e.key();
            value.putLong(key.time).putInt(key.schemaId).putLong(e.diff()).putInt(key.row.length).put(key.row);
        }
        byte[] key = ByteBuffer.allocate(BLOCK_KEY).put(BufferKey.timeFloor(cell)).putInt(BLOCK_MARK)
            .putLong(nextSequence++).array();
        store().put(Bytes.wrap(key), value.array());
    }

    private long largestSequence() {
        long largest = -1;
        try (KeyValueIterator<Bytes, byte[]> it = store().all()) {
            while (it.hasNext()) {
                byte[] key = it.next().key.get();
                if (isBlock(key)) {
                    largest = Math.max(largest, sequence(key));
                }
            }
        }
        return largest;
    }

    private void dropPending() {
        pending.clear();
        pendingBytes = 0;
        pendingEarliest = Long.MAX_VALUE;
    }

    private static long sequence(byte[] blockKey) {
        return BufferKey.readLong(blockKey, BufferKey.HEADER);
    }

    private static boolean isBlock(byte[] key) {
        return key.length == BLOCK_KEY && BufferKey.readInt(key, 8) == BLOCK_MARK;
    }

    @FunctionalInterface
    private interface EntryConsumer {
        void accept(long time, int schemaId, byte[] row, long diff);
    }

    /** Calls {@code each} for every update of one stored entry (a block or an update of the old layout); returns how many. */
    private static int forEach(byte[] key, byte[] value, EntryConsumer each) {
        if (!isBlock(key)) {
            each.accept(BufferKey.time(key), BufferKey.schemaId(key), BufferKey.row(key), ByteBuffer.wrap(value).getLong());
            return 1;
        }
        ByteBuffer in = ByteBuffer.wrap(value);
        int count = in.getInt();
        in.getLong();
        for (int i = 0; i < count; i++) {
            long time = in.getLong();
            int schemaId = in.getInt();
            long diff = in.getLong();
            byte[] row = new byte[in.getInt()];
            in.get(row);
            each.accept(time, schemaId, row, diff);
        }
        return count;
    }

    /** The updates of one chunk, consolidated across the entries they came from. */
    private static final class Consolidation {
        private final HashMap<EntryKey, Update[]> byKey = new HashMap<>();
        private final List<Update> overflowed = new ArrayList<>();

        /** Adds the updates of one stored entry in {@code [lower, upper)}; returns their bytes. */
        long addAll(byte[] key, byte[] value, long lower, long upper) {
            long[] bytes = {0};
            forEach(key, value, (time, schemaId, row, diff) -> {
                if (time >= lower && time < upper) {
                    add(new Update(time, schemaId, row, diff));
                    bytes[0] += row.length + UPDATE_OVERHEAD;
                }
            });
            return bytes[0];
        }

        private void add(Update update) {
            Update[] slot = byKey.computeIfAbsent(new EntryKey(update.time(), update.schemaId(), update.row()),
                k -> new Update[1]);
            Update old = slot[0];
            if (old == null) {
                slot[0] = update;
                return;
            }
            long total = old.diff() + update.diff();
            if (((old.diff() ^ total) & (update.diff() ^ total)) < 0) {
                overflowed.add(update);
            } else {
                slot[0] = new Update(old.time(), old.schemaId(), old.row(), total);
            }
        }

        /** In time order, as the blocks are. */
        List<Update> updates() {
            List<Update> out = new ArrayList<>(byKey.size() + overflowed.size());
            for (Update[] slot : byKey.values()) {
                if (slot[0].diff() != 0) {
                    out.add(slot[0]);
                }
            }
            out.sort(Comparator.comparingLong(Update::time));
            out.addAll(overflowed);
            return out;
        }
    }
}
