package io.mvsink.logging;

import org.slf4j.MDC;

/**
 * The shard a thread works for, in SLF4J's MDC under {@value #KEY} (and the partition a task's
 * processor works for under {@value #PARTITION}), so that every line logged meanwhile names it (the
 * text layout after the logger's name, the JSON layout under "mdc") and no message builds a
 * "shard ..." or "partition ..." prefix of its own. The MDC is per thread: mvsink sets it where its own
 * code takes up a shard's work (an app's start and close, its processors' init, process, punctuate
 * and close, its GC and compactor threads, a builder thread's drain of one batch) and restores what
 * was there when that work ends, so that a pooled thread never carries a shard into its next job.
 */
public final class ShardLogContext {
    /** The MDC key; README "Logging" names it. */
    public static final String KEY = "shard";
    /** The MDC key of the input partition, set by a task's processor; README "Logging" names it. */
    public static final String PARTITION = "partition";
    private static final Scope UNCHANGED = () -> { };

    private ShardLogContext() {
    }

    /** A scope closed without a checked exception. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Puts {@code shard} in this thread's MDC until the scope closes, which restores the previous value. */
    public static Scope enter(String shard) {
        String previous = MDC.get(KEY);
        if (shard.equals(previous)) {
            return UNCHANGED;
        }
        MDC.put(KEY, shard);
        return previous == null ? () -> MDC.remove(KEY) : () -> MDC.put(KEY, previous);
    }

    /**
     * Puts {@code shard} and {@code partition} in this thread's MDC until the scope closes, which
     * restores the previous values: what a task's processor does at each of its entry points.
     */
    public static Scope enter(String shard, int partition) {
        Scope outer = enter(shard);
        String value = Integer.toString(partition);
        String previous = MDC.get(PARTITION);
        if (value.equals(previous)) {
            return outer;
        }
        MDC.put(PARTITION, value);
        return () -> {
            if (previous == null) {
                MDC.remove(PARTITION);
            } else {
                MDC.put(PARTITION, previous);
            }
            outer.close();
        };
    }

    /** {@code work} run with {@code shard} in the MDC, for a thread or an executor of that shard. */
    public static Runnable wrap(String shard, Runnable work) {
        return () -> {
            try (Scope scope = enter(shard)) {
                work.run();
            }
        };
    }
}
