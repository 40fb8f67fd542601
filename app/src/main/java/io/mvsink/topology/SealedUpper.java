package io.mvsink.topology;

import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import java.util.Arrays;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Feedback: a task's view of its shard's sealed upper, read from the global store that mirrors
 * the consensus topic (committed records only). It lags the appender a little, never leads it,
 * so trimming below it never forgets an update that is not durably sealed.
 */
final class SealedUpper {
    private final ReadOnlyKeyValueStore<String, byte[]> consensus;
    private final String shard;
    private String lastKey;
    private byte[] lastValue;
    private long upper;

    SealedUpper(ReadOnlyKeyValueStore<String, byte[]> consensus, String shard) {
        this.consensus = consensus;
        this.shard = shard;
    }

    /** The shard's upper after its latest append (or rollup); 0 before the first. */
    long get() {
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
