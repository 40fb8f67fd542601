package io.mvsink.protocol;

import io.mvsink.time.TimeRange;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One shard's recently delivered batches and who contributed to each. When a
 * participant's task leaves the JVM (closed, migrated, its thread replaced), the other participants
 * would wait for a seal that may not come until {@code recontribute.timeout.ms}: the owner's report
 * may never commit, and a batch holding a partition that now has a new owner elsewhere can
 * conflict with that owner's copies in every exact cover. They are told to contribute the range
 * again at once.
 * A copy is harmless (the appender uses one), so a report that did commit costs only the copy.
 * Bounded: the oldest deliveries are forgotten first (a seal long past them made them moot, and the
 * timeout still covers any that is not). Guarded by the coalescer's lock.
 */
final class Deliveries {
    static final int KEPT = 512;

    private record Delivery(TimeRange range, List<Integer> participants) {
    }

    private final ArrayDeque<Delivery> recent = new ArrayDeque<>();
    private final Map<Integer, TimeRange> restarts = new HashMap<>();

    void delivered(SharedBuilder batch) {
        List<Integer> participants = batch.partitions();
        recent.addLast(new Delivery(batch.key.range(), participants));
        if (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /**
     * {@code partition}'s task left: every delivery it took part in (as owner or not) makes its
     * other still-local participants restart. Its owner's report may never commit; and where the
     * partition's next owner contributes the range again elsewhere, a batch holding it both here
     * and there can conflict with that copy in every exact cover, until the others contribute
     * again without it.
     */
    void participantLeft(int partition, Collection<Integer> local) {
        for (Iterator<Delivery> it = recent.iterator(); it.hasNext(); ) {
            Delivery d = it.next();
            if (d.participants().contains(partition)) {
                it.remove();
                restartOthers(partition, d.participants(), d.range(), local);
            }
        }
    }

    /** {@code left}'s task left a batch of {@code range}: its other still-local participants restart from there. */
    void restartOthers(int left, Collection<Integer> participants, TimeRange range, Collection<Integer> local) {
        for (int p : participants) {
            if (p != left && local.contains(p)) {
                restarts.merge(p, range, TimeRange::span);
            }
        }
    }

    /** {@code partition}'s task left or joins afresh: a restart recorded for its old task is moot. */
    void forget(int partition) {
        restarts.remove(partition);
    }

    Optional<TimeRange> takeRestart(int partition) {
        return Optional.ofNullable(restarts.remove(partition));
    }
}
