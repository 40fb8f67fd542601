package io.mvsink.consensus;

/**
 * Keys of the consensus topic: {@code <shard>/<seqno, 19 digits>}, one per append, so that the
 * compacted topic keeps every diff until a rollup replaces them, and so that byte order of keys
 * is seqno order within a shard.
 */
public final class ConsensusKeys {
    private ConsensusKeys() {
    }

    public static String diff(String shard, long seqno) {
        return String.format("%s/%019d", shard, seqno);
    }

    /** The first key of a shard's range (inclusive). */
    public static String first(String shard) {
        return shard + "/";
    }

    /** The last key of a shard's range (inclusive bound; '~' sorts after every digit). */
    public static String last(String shard) {
        return shard + "/~";
    }

    /** The shard a key belongs to, or null if the key is not a consensus key. */
    public static String shardOf(String key) {
        int slash = key == null ? -1 : key.lastIndexOf('/');
        return slash <= 0 ? null : key.substring(0, slash);
    }
}
