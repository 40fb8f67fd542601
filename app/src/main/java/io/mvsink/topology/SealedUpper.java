package io.mvsink.topology;

import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Feedback: a task's view of its shard's sealed upper, read from the global store that mirrors
 * the consensus topic (committed records only). It lags the appender a little, never leads it,
 * so trimming below it never forgets an update that is not durably sealed.
 *
 * <p>The store is read again only once the mirror has written to it since the last read
 * (counted by {@link ConsensusMirror}): a task asks at every progress record, and a RocksDB range
 * read each time was 3.7% of a wide catch-up's samples. A write the count does not show yet is
 * read at the next ask; an answer is at most as old as the count, so never ahead of the store.
 */
final class SealedUpper {
    private final ReadOnlyKeyValueStore<String, byte[]> consensus;
    private final String shard;
    private final LongSupplier writes;
    private long readAtWrites = -1;
    private String lastKey;
    private byte[] lastValue;
    private long upper;

    /** A view that reads the store at every ask. */
    SealedUpper(ReadOnlyKeyValueStore<String, byte[]> consensus, String shard) {
        this(consensus, shard, null);
    }

    /** A view that reads the store again only after {@code writes} (the mirror's count of writes, or null to read at every ask) moved. */
    SealedUpper(ReadOnlyKeyValueStore<String, byte[]> consensus, String shard, LongSupplier writes) {
        this.consensus = consensus;
        this.shard = shard;
        this.writes = writes;
    }

    /** The shard's upper after its latest append (or rollup); 0 before the first. */
    long get() {
        if (writes != null) {
            // read the count before the store: a write after this read moves it past what is kept here
            long now = writes.getAsLong();
            if (now == readAtWrites) {
                return upper;
            }
            readAtWrites = now;
        }
        try (KeyValueIterator<String, byte[]> it =
                 consensus.reverseRange(ConsensusKeys.first(shard), ConsensusKeys.last(shard))) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> latest = it.next();
                if (!ConsensusKeys.isRollup(latest.key) && !ConsensusKeys.isDiff(latest.key)) {
                    // the grace record sorts in the shard's range, below the rollup and every diff; the
                    // global store applies the records of one append one at a time, so it can be alone
                    continue;
                }
                // right after a rollup its key (seqno 0's) may be the only one left, and every rollup
                // reuses that key: a record is known by its key and its value
                if (!latest.key.equals(lastKey) || !Arrays.equals(latest.value, lastValue)) {
                    upper = ConsensusKeys.isRollup(latest.key)
                        ? Codecs.STATE_ROLLUP.decode(latest.value).getUpper()
                        : Codecs.STATE_DIFF.decode(latest.value).getUpper();
                    lastKey = latest.key;
                    lastValue = latest.value;
                }
                break;
            }
        }
        return upper;
    }
}
