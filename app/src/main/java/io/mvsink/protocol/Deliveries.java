package io.mvsink.protocol;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One shard's recently delivered batches: who owns each and who else contributed to it. When an
 * owner's task leaves the JVM (closed, migrated, its thread replaced), its report may never commit,
 * and the other participants, told {@link Outcome.Covered}, would wait for a seal that does not
 * come until {@code recontribute.timeout.ms}; they are told to contribute the range again at once.
 * A copy is harmless (the appender uses one), so a report that did commit costs only the copy.
 * Bounded: the oldest deliveries are forgotten first (a seal long past them made them moot, and the
 * timeout still covers any that is not). Guarded by the registry's lock.
 */
final class Deliveries {
    static final int KEPT = 512;

    private record Delivery(int owner, long lower, long upper, List<Integer> participants) {
    }

    private final ArrayDeque<Delivery> recent = new ArrayDeque<>();
    private final Map<Integer, Range> restarts = new HashMap<>();

    void delivered(SharedBuilder batch, Handle owner) {
        List<Integer> participants = batch.partitions();
        recent.addLast(new Delivery(owner.contribution.partition(), batch.key.lower(), batch.key.upper(), participants));
        if (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /** {@code owner}'s task left: every delivery it owned makes its other (still local) participants restart. */
    void ownerLeft(int owner, Collection<Integer> local) {
        for (Iterator<Delivery> it = recent.iterator(); it.hasNext(); ) {
            Delivery d = it.next();
            if (d.owner() != owner) {
                continue;
            }
            it.remove();
            for (int p : d.participants()) {
                if (p != owner && local.contains(p)) {
                    restarts.merge(p, new Range(d.lower(), d.upper()),
                        (a, b) -> new Range(Math.min(a.lower(), b.lower()), Math.max(a.upper(), b.upper())));
                }
            }
        }
    }

    Optional<Range> takeRestart(int partition) {
        return Optional.ofNullable(restarts.remove(partition));
    }
}
