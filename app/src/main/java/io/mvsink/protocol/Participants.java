package io.mvsink.protocol;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The local tasks of one shard in this JVM and where each one stands: the one record of a
 * partition's contribution progress. Barriers ({@link BatchCoalescer}), the minter
 * ({@link RangeMinter}) and the task itself ({@link Contributor}) all read it from here. Written
 * only under the coalescer's lock; a task reads its own position without it.
 */
final class Participants {
    /** Where one local task stands. */
    static final class Position {
        private final BufferedBytes bytes;
        /** The lower of the task's next contribution: everything below it is handed off or sealed. */
        private volatile long lower;
        /** The task's closed frontier as it last asked for a range; -1 until it asked. */
        private volatile long closedUpTo = -1;

        Position(BufferedBytes bytes, long lower) {
            this.bytes = bytes;
            this.lower = lower;
        }

        long lower() {
            return lower;
        }

        long closedUpTo() {
            return closedUpTo;
        }

        boolean asked() {
            return closedUpTo >= 0;
        }

        long bytes(long from, long to) {
            return bytes.between(from, to);
        }
    }

    private final Map<Integer, Position> tasks = new HashMap<>();

    /** The task now runs here and contributes next from {@code lower}; its position, or its old one if it already ran. */
    Position join(int partition, BufferedBytes bytes, long lower) {
        return tasks.computeIfAbsent(partition, p -> new Position(bytes, lower));
    }

    void leave(int partition) {
        tasks.remove(partition);
    }

    Set<Integer> partitions() {
        return tasks.keySet();
    }

    Collection<Position> positions() {
        return tasks.values();
    }

    /** The task asks for a range from {@code lower} with its frontier closed up to {@code closedUpTo}. */
    void asked(int partition, long lower, long closedUpTo) {
        Position task = position(partition);
        task.lower = lower;
        task.closedUpTo = closedUpTo;
    }

    /** The task handed off everything below {@code upper}. */
    void handedOff(int partition, long upper) {
        Position task = tasks.get(partition);
        if (task != null) {
            task.lower = Math.max(task.lower, upper);
        }
    }

    /** The task will contribute again from {@code lower}. */
    void rewind(int partition, long lower) {
        Position task = tasks.get(partition);
        if (task != null) {
            task.lower = Math.min(task.lower, lower);
        }
    }

    /**
     * Whether some local task may still join a batch from {@code lower} that it has not joined: a
     * task that has handed off beyond {@code lower} never will (a barrier waits for the others),
     * unless a batch of its from below {@code lower} failed and it has not been told yet.
     *
     * @param failedFrom per partition, the lowest lower of a failed batch it has not been told of
     */
    boolean mayStillJoin(long lower, Set<Integer> joined, Map<Integer, Long> failedFrom) {
        for (Map.Entry<Integer, Position> task : tasks.entrySet()) {
            long from = Math.min(task.getValue().lower, failedFrom.getOrDefault(task.getKey(), Long.MAX_VALUE));
            if (!joined.contains(task.getKey()) && from <= lower) {
                return true;
            }
        }
        return false;
    }

    private Position position(int partition) {
        Position task = tasks.get(partition);
        if (task == null) {
            throw new IllegalStateException("partition " + partition + " asks for a range without joining");
        }
        return task;
    }
}
