package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.Update;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.time.TimeRange;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's side of the seal protocol: which ranges of its buffer it hands to the batch
 * coalescer, what it does with the answers, and when it contributes again. Its progress (the lower
 * of its next contribution) is its {@code Participants.Position} in the coalescer, the one record
 * of it. Runs on the task's stream thread and never waits on a builder or a barrier.
 *
 * <p>Nothing leaves the task's buffer before the consensus topic shows it sealed, so the task can
 * always contribute again: from the sealed upper when it starts, when a batch holding its
 * contribution failed or another of its participants left the JVM, and when a contribution is not sealed within
 * {@code recontribute.timeout.ms} (its batch may have been lost with another task's aborted
 * transaction). Copies are harmless: the appender's exact cover uses one.
 */
public final class Contributor {
    /** The shard and the partition are in the MDC, set by the task that drives it (logging.ShardLogContext). */
    private static final Logger LOG = LoggerFactory.getLogger(Contributor.class);
    /** At most this many grid intervals of a copy are contributed one by one (see {@link #pieceEnd}). */
    public static final int COPY_PIECES = 64;
    /** Intervals past its committed frontier that a killed previous owner may have contributed. */
    public static final int COPY_MARGIN = 32;

    /** The task's buffered updates, read a chunk at a time. */
    @FunctionalInterface
    public interface Buffer {
        /**
         * The updates of {@code [lower, upper)} from {@code from} (null: from {@code lower}), in
         * buffer order, stopping once they reach about {@code maxBytes}.
         */
        Chunk read(long lower, long upper, byte[] from, long maxBytes);
    }

    /**
     * One chunk of a range's updates.
     *
     * @param next where the next chunk starts (the buffer's own position); null after the last
     */
    public record Chunk(List<Update> updates, byte[] next) {
    }

    /**
     * A range being handed over chunk by chunk.
     *
     * @param handle the coalescer's answer to its first chunk; null until the coalescer took it
     * @param next where the next chunk starts in the buffer
     * @param held a chunk already read that the coalescer refused: handed over first, never read again
     * @param copy a piece of contributing again, not a range from the minter
     */
    private record Open(TimeRange range, Handle handle, byte[] next, ContributionData held, boolean copy) {
    }

    /**
     * Where a task's contributor starts.
     *
     * @param sealed the shard's sealed upper, as the task's consensus store holds it
     * @param frontier the task's committed frontier, floored to the grid
     */
    public record Start(long sealed, long frontier) {
    }

    /** A contribution not yet sealed: its upper, and when it was handed off. */
    private record Unsealed(long upper, long handedOffAtMs) {
    }

    /** Reports a batch the task owns, from its stream thread, in its transaction. */
    @FunctionalInterface
    public interface Reporter {
        void report(Outcome.Report report, long upper);
    }

    private final BatchCoalescer coalescer;
    private final String shard;
    private final int partition;
    private final long width;
    private final long recontributeMs;
    private final Time time;
    private final ShardMetrics metrics;
    private final Participants.Position position;
    private final Deque<Handle> inFlight = new ArrayDeque<>();
    /** Per contribution not yet sealed, oldest first. */
    private final Deque<Unsealed> unsealed = new ArrayDeque<>();
    /** The contribution being handed over chunk by chunk; null when none is. */
    private Open open;
    /** Ranges in [copiesFrom, copiesBelow) may have been contributed before: contribute them in pieces. */
    private long copiesFrom;
    private long copiesBelow;

    /**
     * Joins the shard's local tasks. Everything not sealed is contributed again, in pieces
     * ({@link #pieceEnd}): what this task handed off before is not tracked any more, and whoever
     * held it may be gone; a killed previous owner may have contributed past the frontier it
     * committed ({@link #COPY_MARGIN}).
     *
     * @param recontribute a contribution not sealed this long after hand-off is contributed again
     */
    public Contributor(BatchCoalescer coalescer, String shard, int partition, Grid grid, Duration recontribute,
                       Time time, ShardMetrics metrics, BufferedBytes bytes, Start start) {
        this.coalescer = coalescer;
        this.shard = shard;
        this.partition = partition;
        this.width = grid.width();
        this.recontributeMs = recontribute.toMillis();
        this.time = time;
        this.metrics = metrics;
        long sealed = start.sealed();
        copiesIn(sealed, sealed == 0 ? start.frontier() : Math.max(start.frontier(), sealed) + COPY_MARGIN * width);
        this.position = coalescer.register(shard, partition, bytes, sealed);
    }

    /** The lower of the task's next contribution. */
    public long handedOffUpTo() {
        return position.lower();
    }

    /**
     * Hands the closed, not yet handed-off ranges to the coalescer, as far as the coalescer takes
     * them: the shard's minted ranges (the same ranges every local task contributes), or, where
     * this task's earlier contributions may have other boundaries, one grid interval at a time.
     *
     * @param closed the task's frontier, floored to the grid
     */
    public void contribute(long sealed, long closed, Buffer buffer) {
        if (!handOverRest(buffer)) {
            return;
        }
        long lower = Math.max(position.lower(), sealed);
        while (coalescer.accepting()) {
            boolean copy = lower < copiesBelow && lower < closed;
            TimeRange next = copy
                ? TimeRange.of(lower, pieceEnd(lower, closed))
                : coalescer.nextRange(shard, new RangeMinter.Ask(partition, sealed, lower, closed)).orElse(null);
            if (next == null || next.upper() > closed || !offer(next, copy, buffer)) {
                return;
            }
            lower = next.upper();
        }
    }

    /**
     * The punctuation's work: answers finished batches in range order (reporting those it owns),
     * contributes again where a batch failed, a participant left, or nothing sealed for too long, then
     * contributes what is due.
     */
    public void tick(long sealed, long closed, Buffer buffer, Reporter reporter) {
        metrics.sealProgress().observed(partition, sealed, closed, time.milliseconds());
        coalescer.tick();
        pollHandles(reporter);
        recontributeIfParticipantLeft(sealed);
        recontributeIfStuck(sealed);
        contribute(sealed, closed, buffer);
    }

    /** The task closes: it stops waiting for its batches and leaves the shard's local tasks. */
    public void close() {
        if (!inFlight.isEmpty()) {
            LOG.info("closing with {} unanswered batches; the next owner contributes again",
                inFlight.size());
        }
        inFlight.forEach(coalescer::abandon);
        inFlight.clear();
        unsealed.clear();
        open = null;
        coalescer.deregister(shard, partition);
        metrics.sealProgress().left(partition);
    }

    /**
     * Where the contribution from {@code lower} ends. A range in {@code [copiesFrom, copiesBelow)}
     * may have been contributed before, by this task or by the partition's previous owner, with
     * other boundaries, and those copies may sit in batches shared with other partitions that still
     * need them. A copy that spans such a boundary can never be combined with them in an exact
     * cover, so the appender could wait forever. There, contributions are therefore cut at every
     * grid point: earlier boundaries are always grid points, so the pieces fit them.
     */
    private long pieceEnd(long lower, long upper) {
        if (lower < copiesFrom) {
            return Math.min(upper, copiesFrom);
        }
        return lower < copiesBelow ? Math.min(upper, lower + width) : upper;
    }

    /**
     * Sets where contributions are cut into pieces: from {@code from} (where contributing again
     * starts: an earlier copy may have a gap there) to {@code below} (where earlier copies may
     * end), at most {@link #COPY_PIECES} intervals, which bounds the cost of a round after a long
     * stall (a later round starts higher). While the shard has sealed nothing, earlier copies all
     * start at 0 and their boundaries lie near the frontier, so the pieces are the last intervals
     * below {@code below}.
     */
    private void copiesIn(long from, long below) {
        long most = COPY_PIECES * width;
        copiesFrom = from == 0 ? Math.max(0, below - most) : from;
        copiesBelow = Math.min(below, copiesFrom + most);
    }

    /** Offers the range; false if the coalescer refused some chunk of it (back-pressure: the rest follows later). */
    private boolean offer(TimeRange range, boolean copy, Buffer buffer) {
        open = new Open(range, null, null, null, copy);
        return handOverRest(buffer);
    }

    /**
     * Hands over the open range, a chunk at a time, as far as the coalescer takes it; true once
     * nothing of it is left to hand over. A refused chunk is kept, so that back-pressure costs no
     * second read of the buffer (issue 12 item 12), and a full queue no read at all.
     */
    private boolean handOverRest(Buffer buffer) {
        while (open != null) {
            TimeRange range = open.range();
            ContributionData data = open.held();
            byte[] next = open.next();
            if (data == null) {
                if (!coalescer.accepting()) {
                    return false;
                }
                Chunk chunk = buffer.read(range.lower(), range.upper(), next, coalescer.chunkBytes());
                data = new ContributionData(shard, partition, range, chunk.updates(),
                    time.milliseconds(), chunk.next() == null);
                next = chunk.next();
            }
            Handle handle = open.handle();
            if (handle == null) {
                Optional<Handle> taken = coalescer.contribute(data, open.copy());
                if (taken.isEmpty()) {
                    open = new Open(range, null, next, data, open.copy());
                    return false;
                }
                handle = taken.get();
                inFlight.addLast(handle);
                unsealed.addLast(new Unsealed(range.upper(), data.closedAtMs()));
                metrics.contributed();
            } else if (!coalescer.more(handle, data)) {
                open = new Open(range, handle, next, data, open.copy());
                return false;
            }
            open = data.last() ? null : new Open(range, handle, next, null, open.copy());
        }
        return true;
    }

    /** Answers finished handles in range order; on a failed batch, contributes everything again. */
    private void pollHandles(Reporter reporter) {
        while (!inFlight.isEmpty()) {
            Handle head = inFlight.peekFirst();
            Outcome outcome = coalescer.poll(head);
            if (outcome instanceof Outcome.Pending) {
                return;
            }
            inFlight.pollFirst();
            if (outcome instanceof Outcome.Report report) {
                LOG.debug("reporting batch {} of [{}, {})", report.batch().getBatchId(),
                    head.lower(), head.upper());
                reporter.report(report, head.upper());
            } else if (outcome instanceof Outcome.Failed failed) {
                LOG.warn("batch for [{}, {}) failed, contributing again: {}", head.lower(),
                    head.upper(), failed.reason());
                restartFrom(head.lower());
                return;
            }
        }
    }

    /**
     * Contributes again at once when another participant of a batch holding this task's
     * contribution left the JVM before the batch was known to be sealed (see
     * {@link BatchCoalescer#deregister}; this task would otherwise wait for
     * {@code recontribute.timeout.ms}).
     */
    private void recontributeIfParticipantLeft(long sealed) {
        coalescer.takeRestart(shard, partition).filter(r -> r.upper() > sealed).ifPresent(r -> {
            // restarting abandons every handle in flight: from the oldest of them at the latest, or a
            // batch below the restarted range that is still being written would be dropped with nobody
            // contributing it again until recontribute.timeout.ms
            long oldest = inFlight.isEmpty() ? r.lower() : Math.min(r.lower(), inFlight.peekFirst().lower());
            long from = Math.max(oldest, sealed);
            if (from < position.lower()) {
                LOG.info("a participant of the batch of [{}, {}) left, contributing again from {}", r.lower(), r.upper(), from);
                restartFrom(from);
            }
        });
    }

    /** Contributes again from the sealed upper if the oldest unsealed contribution waited too long. */
    private void recontributeIfStuck(long sealed) {
        while (!unsealed.isEmpty() && unsealed.peekFirst().upper() <= sealed) {
            unsealed.pollFirst();
        }
        // while a copy of the last round is still in the coalescer, another round would only queue behind it
        boolean copyInFlight = !inFlight.isEmpty() && inFlight.peekFirst().upper() <= copiesBelow;
        if (!copyInFlight && !unsealed.isEmpty() && time.milliseconds() - unsealed.peekFirst().handedOffAtMs() >= recontributeMs) {
            LOG.info("[{}, {}) not sealed within {} ms, contributing again", sealed,
                position.lower(), recontributeMs);
            restartFrom(sealed);
        }
    }

    private void restartFrom(long lower) {
        inFlight.forEach(coalescer::abandon);
        inFlight.clear();
        unsealed.clear();
        open = null;
        copiesIn(lower, Math.max(copiesBelow, position.lower()));
        coalescer.rewind(shard, partition, lower);
        metrics.recontributed();
    }
}
