package io.mvsink.consensus;

import java.util.Locale;

/**
 * Keys of the consensus topic: {@code <shard>/<seqno, 19 digits>}, one per append, so that the
 * compacted topic keeps every diff until a rollup replaces them, and so that byte order of keys
 * is seqno order within a shard. The rollup has seqno 0's key (appends start at 1): the compacted
 * topic keeps only the latest rollup, and it sorts before every diff of its shard.
 */
public final class ConsensusKeys {
    private ConsensusKeys() {
    }

    public static String diff(String shard, long seqno) {
        return String.format(Locale.ROOT, "%s/%019d", shard, seqno);
    }

    /** The key of the shard's rollup record. */
    public static String rollup(String shard) {
        return diff(shard, 0);
    }

    /**
     * The key of the shard's grace record ({@link ShardGrace}): {@code <shard>/.meta/gc-grace}. Its
     * shape keeps readers that know nothing of it (versions before it) away from it: its
     * {@link #shardOf shard} is {@code <shard>/.meta}, never a shard's name (names have no '/'); its
     * {@link #seqnoOf seqno} is -1; and it sorts before the rollup and every diff of its shard, inside
     * the shard's range ({@link #first}, {@link #last}): a reader of the range skips it by its
     * seqno. It is written with an append, but a store that applies records one at a time (the
     * app's global mirror) can hold it alone, before the append's diff.
     */
    public static String grace(String shard) {
        return shard + "/.meta/gc-grace";
    }

    /** Whether {@code key} is a diff's (seqno 1 or more): not the rollup's, nor the grace record's. */
    public static boolean isDiff(String key) {
        return seqnoOf(key) > 0;
    }

    public static boolean isRollup(String key) {
        return seqnoOf(key) == 0;
    }

    /** The seqno a key stands for (0 for the rollup), or -1 if the key is not a consensus key. */
    public static long seqnoOf(String key) {
        int slash = key == null ? -1 : key.lastIndexOf('/');
        if (slash <= 0 || key.length() - slash - 1 != 19) {
            return -1;
        }
        try {
            return Long.parseLong(key.substring(slash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
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
