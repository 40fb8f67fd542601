package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.ShardSink;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.time.TimeRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard as this JVM runs it, and the one owner of its state: where its parts go, its local
 * tasks and where they stand, its minter (null: each task cuts its own ranges), its builders (open
 * and live) and its batches delivered to a participant whose report may not have committed yet.
 * Every method runs under the coalescer's lock; its builders tell it, under that lock, when they
 * stop taking joins or settle ({@link SharedBuilder.Owner}).
 */
final class LocalShard implements SharedBuilder.Owner {
    private static final Logger LOG = LoggerFactory.getLogger(LocalShard.class);

    private final ShardSink sink;
    private final RangeMinter minter;
    private final Workshop shop;
    private final Participants tasks = new Participants();
    private final Deliveries deliveries = new Deliveries();
    /** Builders that take joins, by range (best-effort and barrier modes). */
    private final Map<SharedBuilder.Key, SharedBuilder> open = new HashMap<>();
    /** Builders not yet retired: open, writing, or finished and waiting for their owner. */
    private final Set<SharedBuilder> live = new HashSet<>();

    LocalShard(ShardSink sink, RangeMinter minter, Workshop shop) {
        this.sink = sink;
        this.minter = minter;
        this.shop = shop;
    }

    Participants.Position register(int partition, BufferedBytes bytes, long lower) {
        deliveries.forget(partition);
        return tasks.join(partition, bytes, lower);
    }

    Optional<TimeRange> nextRange(RangeMinter.Ask ask) {
        if (minter == null) {
            tasks.asked(ask.partition(), ask.lower(), ask.closedUpTo());
            return ask.lower() < ask.closedUpTo() ? Optional.of(TimeRange.of(ask.lower(), ask.closedUpTo())) : Optional.empty();
        }
        return minter.next(tasks, ask, idle());
    }

    void holdMinting(boolean hold) {
        if (minter != null) {
            minter.hold(hold);
        }
    }

    void deregister(int partition) {
        tasks.leave(partition);
        deliveries.forget(partition);
        deliveries.participantLeft(partition, tasks.partitions());
        for (SharedBuilder b : new ArrayList<>(live)) {
            if (b.hasJoined(partition) && b.state() != SharedBuilder.State.FAILED) {
                // an open barrier holding the partition takes no more joins: a task that joined it later
                // would not be told, and its only copy of the range would hold the partition that left
                close(b);
                deliveries.restartOthers(partition, b.partitions(), b.key.range(),
                    tasks.partitions());
            }
        }
        closeSatisfiedBarriers();
    }

    void rewind(int partition, long lower) {
        tasks.rewind(partition, lower);
    }

    Optional<TimeRange> takeRestart(int partition) {
        return deliveries.takeRestart(partition);
    }

    Optional<Handle> contribute(ContributionData c, boolean copy) {
        long size = c.approximateBytes();
        if (shop.totals().refuses(size)) {
            sink.metrics().builderRefused();
            return Optional.empty();
        }
        CoalescingMode mode = shop.mode();
        SharedBuilder.Key key = new SharedBuilder.Key(c.shard(), c.lower(), c.upper());
        SharedBuilder builder = mode == CoalescingMode.NONE ? null : open.get(key);
        boolean shared = true;
        if (builder == null || builder.hasJoined(c.partition())) {
            // a task contributing the same range twice gets a batch of its own: a batch holds
            // at most one contribution per partition
            shared = mode != CoalescingMode.NONE && builder == null;
            builder = new SharedBuilder(key, sink, shop, this);
            live.add(builder);
            shop.totals().opened(key.shard());
            if (shared) {
                open.put(key, builder);
            }
        }
        Handle handle = builder.join(c, shop.time().milliseconds());
        if (copy) {
            builder.joinedWithCopy();
        } else {
            builder.joinedWithRange();
        }
        shop.totals().queue(c.shard(), size);
        tasks.handedOff(c.partition(), c.upper());
        if (!shared) {
            close(builder);
        } else if (mode == CoalescingMode.BARRIER) {
            closeSatisfiedBarriers();
        }
        schedule(builder);
        return Optional.of(handle);
    }

    /** Closes barriers whose timeout passed and best-effort builders that lingered idle long enough. */
    void tick(long now) {
        for (SharedBuilder b : new ArrayList<>(open.values())) {
            if (shop.mode() == CoalescingMode.BARRIER && now - b.openedAtMs >= shop.barrierTimeoutMs()) {
                sink.metrics().barrierTimedOut();
                close(b);
            } else if (shop.mode() == CoalescingMode.BEST_EFFORT && b.idle() && now - b.lastActivityMs() >= shop.lingerMs()) {
                close(b);
            }
        }
    }

    Outcome poll(Handle h) {
        SharedBuilder b = h.builder;
        if (b.resolved(h)) {
            throw new IllegalStateException("handle of batch " + b.batchId + " was already resolved");
        }
        Outcome outcome = b.answer(h, shop.ownership());
        if (outcome instanceof Outcome.Report) {
            deliveries.delivered(b);
        }
        if (b.resolved(h)) {
            retire(b);
        }
        return outcome;
    }

    void abandon(Handle h) {
        SharedBuilder b = h.builder;
        if (!b.resolved(h)) {
            if (b.abandon(h)) {
                stoppedJoining(b);
            }
            retire(b);
        }
    }

    boolean more(Handle h, ContributionData chunk) {
        long size = chunk.approximateBytes();
        if (shop.totals().refuses(size)) {
            sink.metrics().builderRefused();
            return false;
        }
        if (h.builder.more(h, chunk)) {
            shop.totals().queue(chunk.shard(), size);
            schedule(h.builder);
        }
        return true;
    }

    @Override
    public void stoppedJoining(SharedBuilder b) {
        open.remove(b.key, b);
    }

    @Override
    public void settled(SharedBuilder b) {
        retire(b);
    }

    /**
     * No builder that a task joined with a range from the shard's minter is open or writing: the
     * last minted range is handed off to storage. A builder that holds only copy pieces does not count, even where a
     * piece has the shape of a minted range (one interval at a steady rate): after a kill the tasks
     * that stayed would otherwise wait for every piece to be written (issue 12 item 13).
     */
    private boolean idle() {
        for (SharedBuilder b : live) {
            if (b.state().writing() && b.ranged()) {
                return false;
            }
        }
        return true;
    }

    private void close(SharedBuilder b) {
        if (b.close()) {
            open.remove(b.key, b);
            schedule(b);
        }
    }

    private void closeSatisfiedBarriers() {
        if (shop.mode() != CoalescingMode.BARRIER) {
            return;
        }
        Map<Integer, Long> failedFrom = failedFrom();
        for (SharedBuilder b : new ArrayList<>(open.values())) {
            if (!b.mayStillBeJoined(tasks, failedFrom)) {
                close(b);
            }
        }
    }

    /**
     * Per partition, the lowest lower of a failed batch of the shard that it has not been told of
     * yet: told, it contributes again from there, so a barrier there still waits for it.
     */
    private Map<Integer, Long> failedFrom() {
        Map<Integer, Long> from = new HashMap<>();
        for (SharedBuilder b : live) {
            if (b.state() == SharedBuilder.State.FAILED) {
                for (int p : b.unanswered()) {
                    from.merge(p, b.key.lower(), Math::min);
                }
            }
        }
        return from;
    }

    private void schedule(SharedBuilder b) {
        if (b.startDraining()) {
            shop.pool().execute(ShardLogContext.wrap(b.key.shard(), b::drain));
        }
    }

    private void retire(SharedBuilder b) {
        switch (b.retire()) {
            case NOT_YET -> {
                return;
            }
            case DROPPED_ORPHANED -> {
                shop.totals().orphaned();
                sink.metrics().orphanedBatch();
                LOG.error("shard {}: batch {} for [{}, {}) orphaned: {} participants were told it is reported, "
                    + "nobody reported it", b.key.shard(), b.batchId, b.key.lower(), b.key.upper(), b.coveredAnswers());
            }
            case DROPPED_ABANDONED -> sink.metrics().batchAbandoned();
            case RETIRED -> { }
        }
        if (live.remove(b)) {
            shop.totals().retired(b.key.shard());
        }
    }
}
