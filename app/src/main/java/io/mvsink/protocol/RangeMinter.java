package io.mvsink.protocol;

import io.mvsink.metrics.LaunchLog;
import io.mvsink.time.TimeRange;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mints one shard's ranges for every task of the shard in this JVM, so that all of them
 * contribute exactly the same {@code [lower, upper)} and a builder can hold the whole JVM's data of
 * a range (one batch per range, one blob write per part).
 *
 * <p>The next range is minted once every local task has handed off the previous one and no
 * builder of a minted range is still writing ({@code idle}): while one range is in flight, the
 * tasks' frontiers run on, so behind a backlog the next range covers everything they closed
 * meanwhile; at a steady rate it is one interval and seal latency does not grow. A builder that
 * holds only copy pieces ({@link Contributor}'s contributing again, marked by the task, whatever
 * their shape) does not hold minting back: after a kill, the tasks that stayed would otherwise
 * wait for every piece to be written, one blob each. A range ends at
 * {@link GridCuts#cut} of the window from the last minted upper to the smallest closed frontier of
 * the local tasks, narrowed while the tasks' buffered bytes in it exceed the target (a part set
 * stays bounded). A task that is below the minted sequence (a late joiner, a rewind) contributes
 * the rest of the minted range it stands in, then follows the sequence.
 *
 * <p>Not thread-safe: the batch coalescer calls it under its lock.
 */
public final class RangeMinter {
    private static final Logger LOG = LoggerFactory.getLogger(RangeMinter.class);
    private final long width;
    private final long targetBytes;
    /** Minted ranges not yet sealed, lower to upper, contiguous. */
    private final TreeMap<Long, Long> minted = new TreeMap<>();
    private long mintedUpTo = -1;
    private long sealedUpTo;
    private long mints;
    private boolean held;
    private final LaunchLog launch = new LaunchLog();

    /** What a task asks with: its partition, the sealed upper it sees, its next lower and closed frontier. */
    record Ask(int partition, long sealed, long lower, long closedUpTo) {
    }

    public RangeMinter(long width, long targetBytes) {
        if (width <= 0 || targetBytes <= 0) {
            throw new IllegalArgumentException("width " + width + " and target bytes " + targetBytes + " must be positive");
        }
        this.width = width;
        this.targetBytes = targetBytes;
    }

    /** While held (the local task set is still forming: the app has not run yet), no new range is minted. */
    void hold(boolean hold) {
        held = hold;
    }

    /**
     * The range the asking task contributes next, starting at its lower, or empty if there is none
     * yet (another local task has not handed off the last range, a builder is still writing, or no
     * interval closed for every local task since). Records where the task stands in {@code tasks}.
     *
     * @param idle no builder that a task joined with a range minted here is open or writing in this
     *             JVM (builders of copy pieces only do not count)
     */
    Optional<TimeRange> next(Participants tasks, Ask ask, boolean idle) {
        tasks.asked(ask.partition(), ask.lower(), ask.closedUpTo());
        sealed(ask.sealed());
        Optional<TimeRange> existing = mintedAt(ask.lower());
        if (existing.isPresent() || ask.lower() < mintedUpTo) {
            return existing;
        }
        if (idle && !held) {
            mint(tasks);
        }
        return mintedAt(ask.lower());
    }

    /** The minted range containing {@code lower}, from {@code lower}; below the sequence, up to its start. */
    private Optional<TimeRange> mintedAt(long lower) {
        var at = minted.floorEntry(lower);
        if (at != null && lower < at.getValue()) {
            return Optional.of(TimeRange.of(lower, at.getValue()));
        }
        var above = minted.ceilingEntry(lower);
        if (at == null && above != null && lower < above.getKey()) {
            return Optional.of(TimeRange.of(lower, above.getKey()));
        }
        return Optional.empty();
    }

    private void sealed(long upper) {
        if (upper <= sealedUpTo) {
            return;
        }
        sealedUpTo = upper;
        while (!minted.isEmpty() && minted.firstEntry().getValue() <= upper) {
            minted.pollFirstEntry();
        }
        if (mintedUpTo >= 0 && mintedUpTo < upper) {
            mintedUpTo = upper;
        }
    }

    /** Mints the next range if every local task stands at the minted upper and all of them closed past it. */
    private void mint(Participants tasks) {
        long from = Long.MAX_VALUE;
        long closed = Long.MAX_VALUE;
        for (Participants.Position t : tasks.positions()) {
            if (!t.asked()) {
                return; // a task that has not asked yet: its frontier is unknown
            }
            from = Math.min(from, t.lower());
            closed = Math.min(closed, t.closedUpTo());
        }
        if (from == Long.MAX_VALUE) {
            return;
        }
        // the first range starts where the tasks stand (after any copies they contributed in pieces)
        long lower = mintedUpTo < 0 ? Math.max(from, sealedUpTo) : Math.max(mintedUpTo, sealedUpTo);
        if (from < lower || Math.floorMod(lower, width) != 0 || closed < lower + width) {
            return;
        }
        // while nothing is sealed the prefix from 0 is one range (cut at the coarsest point it would
        // take log steps to reach the present); the sequences of several JVMs meet after it all the same
        long upper = lower == 0 ? Math.floorDiv(closed, width) * width : GridCuts.cut(lower, closed, width);
        while (upper > lower + width && bytes(tasks, lower, upper) > targetBytes) {
            upper = GridCuts.cut(lower, upper - width, width);
        }
        minted.put(lower, upper);
        mintedUpTo = upper;
        mints++;
        launch.first("first range minted: [{}, {}), {} bytes buffered in it", lower, upper, bytes(tasks, lower, upper));
        LOG.debug("minted [{}, {}): {} bytes buffered in it", lower, upper, bytes(tasks, lower, upper));
    }

    private static long bytes(Participants tasks, long lower, long upper) {
        long sum = 0;
        for (Participants.Position t : tasks.positions()) {
            sum += t.bytes(lower, upper);
        }
        return sum;
    }

    /** Ranges minted so far. */
    long mints() {
        return mints;
    }
}
