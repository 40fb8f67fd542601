package io.mvsink.protocol;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.batch.BatchWriter;
import io.mvsink.batch.ContributionData;
import io.mvsink.batch.ShardSink;
import io.mvsink.time.TimeRange;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shared batch of one {@code (shard, lower, upper)}: its lifecycle, its participants and
 * their contributions, and its queued work. Every transition is a method of this class, which
 * checks it is legal ({@link State#canBecome}) and logs it at DEBUG; its shard ({@link LocalShard})
 * calls them under the coalescer's lock. The builder drains itself ({@link #drain}): the part
 * writing ({@link BatchWriter}) runs on the one builder thread that drains it at a time, and tells
 * its {@link Owner} when it stops taking joins or settles.
 */
final class SharedBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(SharedBuilder.class);

    /**
     * OPEN (participants join) → CLOSED (no more joins; the parts are being finished) → FINISHED
     * (the batch is described, nobody owns it yet) → DELIVERED (one participant owns and reports
     * it), or FINISHED → DROPPED (every participant left before taking it); OPEN or CLOSED → FAILED
     * (a part write failed: everyone contributes again).
     */
    enum State {
        OPEN, CLOSED, FINISHED, DELIVERED, FAILED, DROPPED;

        boolean canBecome(State next) {
            return switch (this) {
                case OPEN -> next == CLOSED || next == FAILED;
                case CLOSED -> next == FINISHED || next == FAILED;
                case FINISHED -> next == DELIVERED || next == DROPPED;
                case DELIVERED, FAILED, DROPPED -> false;
            };
        }

        /** The batch's parts may still be written: the shard's last minted range is not in storage yet. */
        boolean writing() {
            return this == OPEN || this == CLOSED;
        }

        /** Nothing more happens to the batch but its participants' answers. */
        boolean settled() {
            return this == FINISHED || this == DELIVERED || this == FAILED;
        }
    }

    /** What retiring a builder whose participants all answered or left found. */
    enum Retired { NOT_YET, RETIRED, DROPPED_ABANDONED, DROPPED_ORPHANED }

    /** What the builder tells its shard, under the coalescer's lock, from its builder thread. */
    interface Owner {
        /** The builder takes no more joins (it closed or failed). */
        void stoppedJoining(SharedBuilder builder);

        /** The builder settled (finished or failed): it may retire. */
        void settled(SharedBuilder builder);
    }

    record Key(String shard, long lower, long upper) {
        TimeRange range() {
            return TimeRange.of(lower, upper);
        }
    }

    /** One participant: its contribution's first chunk (partition, range, close time) and its progress. */
    private static final class Seat {
        final ContributionData first;
        /** Updates handed over so far, over every chunk. */
        long updates;
        /** More chunks of the contribution are to come. */
        boolean incomplete;
        /** Answered or abandoned. */
        boolean resolved;

        Seat(ContributionData first) {
            this.first = first;
        }
    }

    final Key key;
    final ShardSink sink;
    final String batchId = UUID.randomUUID().toString();
    final long openedAtMs;
    private final BatchWriter writer;
    private final Workshop shop;
    private final Owner owner;
    private State state = State.OPEN;
    private long lastActivityMs;
    private final List<Seat> seats = new ArrayList<>();
    private final Set<Integer> joined = new HashSet<>();
    private final ArrayDeque<Work> work = new ArrayDeque<>();
    private boolean draining;
    /** Participants whose contribution has more chunks to come: the parts are finished only after them. */
    private int incomplete;
    /** Participants answered {@link Outcome.Covered}. */
    private int coveredAnswers;
    private Batch batch;
    private String failure;
    /** A task joined with a range the shard's minter handed out, not only with copy pieces. */
    private boolean ranged;
    /** A task joined with a copy piece: the batch is written as blobs, never inline. */
    private boolean copied;

    SharedBuilder(Key key, ShardSink sink, Workshop shop, Owner owner) {
        this.key = key;
        this.sink = sink;
        this.shop = shop;
        this.owner = owner;
        this.openedAtMs = shop.time().milliseconds();
        this.lastActivityMs = openedAtMs;
        this.writer = new BatchWriter(key.shard(), key.lower(), key.upper(), batchId, sink, shop.time());
    }

    State state() {
        return state;
    }

    /** A task joined with a range from the minter (not a copy piece): the minter waits for this builder. */
    void joinedWithRange() {
        ranged = true;
    }

    boolean ranged() {
        return ranged;
    }

    /**
     * A task joined with a copy piece (contributing again): the batch's parts are never inline. A
     * batch the appender rejected because its inline data did not fit an append ({@code
     * topology.AppendFit}) comes back as copies, so the next append holds blob parts in its place.
     */
    void joinedWithCopy() {
        copied = true;
    }

    /** Whether the batch may be stored inline: no copy piece joined it. */
    boolean mayInline() {
        return !copied;
    }

    private void become(State next) {
        if (!state.canBecome(next)) {
            throw new IllegalStateException("batch " + batchId + " of [" + key.lower() + ", " + key.upper()
                + ") cannot go from " + state + " to " + next);
        }
        LOG.debug("batch {} of [{}, {}): {} -> {}", batchId, key.lower(), key.upper(), state, next);
        state = next;
    }

    /** A participant joins with its contribution (its work is queued); its ticket. Only while open. */
    Handle join(ContributionData c, long now) {
        if (state != State.OPEN) {
            throw new IllegalStateException("batch " + batchId + " is " + state + ": nobody joins it");
        }
        Seat seat = new Seat(c);
        seats.add(seat);
        joined.add(c.partition());
        work.add(new Work.Add(c));
        seat.updates = c.updates().size();
        if (!c.last()) {
            seat.incomplete = true;
            incomplete++;
        }
        lastActivityMs = now;
        return new Handle(this, seats.size() - 1, c);
    }

    /**
     * The next chunk of {@code h}'s contribution. Queued while the batch's parts may still be
     * written; after its last chunk, a closed builder finishes once every contribution is complete.
     * False if the batch failed meanwhile (the chunk is not needed: everyone contributes again).
     */
    boolean more(Handle h, ContributionData chunk) {
        if (h.builder != this || !seat(h).incomplete) {
            throw new IllegalStateException("batch " + batchId + ": partition " + chunk.partition()
                + " sends a chunk of a contribution that is complete or not in this batch");
        }
        if (!state.writing()) {
            return false;
        }
        Seat seat = seat(h);
        work.add(new Work.Add(chunk));
        seat.updates += chunk.updates().size();
        if (chunk.last()) {
            seat.incomplete = false;
            incomplete--;
            if (state == State.CLOSED && incomplete == 0) {
                work.add(Work.FINISH);
            }
        }
        return true;
    }

    private Seat seat(Handle h) {
        return seats.get(h.seat);
    }

    /** Whether {@code h} is answered or abandoned. */
    boolean resolved(Handle h) {
        return seat(h).resolved;
    }

    /**
     * {@code h}'s task no longer waits for the batch. If the rest of its contribution never comes
     * the batch cannot be finished: it fails (true: it stopped taking joins).
     */
    boolean abandon(Handle h) {
        Seat seat = seat(h);
        boolean failed = false;
        if (seat.incomplete && state.writing()) {
            LOG.info("shard {}: partition {} left batch {} for [{}, {}) before its contribution was complete; "
                + "its contributors contribute again", key.shard(), seat.first.partition(), batchId, key.lower(),
                key.upper());
            failed = fail("partition " + seat.first.partition() + " left before its contribution was complete");
        }
        seat.resolved = true;
        return failed;
    }

    boolean hasJoined(int partition) {
        return joined.contains(partition);
    }

    /**
     * Whether some local task of {@code tasks} may still join (a barrier waits for it).
     *
     * @param failedFrom per partition, where it contributes again once told a batch failed
     */
    boolean mayStillBeJoined(Participants tasks, Map<Integer, Long> failedFrom) {
        return tasks.mayStillJoin(key.lower(), joined, failedFrom);
    }

    /** The partitions whose handles are neither answered nor abandoned. */
    List<Integer> unanswered() {
        return seats.stream().filter(s -> !s.resolved).map(s -> s.first.partition()).toList();
    }

    int participants() {
        return seats.size();
    }

    List<Integer> partitions() {
        return seats.stream().map(s -> s.first.partition()).toList();
    }

    /** What each participant contributed, in the order they joined (for the batch's description). */
    List<Contribution> described() {
        return seats.stream().map(s -> new Contribution(s.first.partition(), s.first.lower(),
            s.first.upper(), s.updates)).toList();
    }

    /** When the last participant closed its range. */
    long closedAtMs() {
        long closedAt = 0;
        for (Seat s : seats) {
            closedAt = Math.max(closedAt, s.first.closedAtMs());
        }
        return closedAt;
    }

    long lastActivityMs() {
        return lastActivityMs;
    }

    /**
     * No more joins: the parts are finished once every contribution is complete and the queued
     * work is written. False if it was not open.
     */
    boolean close() {
        if (state != State.OPEN) {
            return false;
        }
        become(State.CLOSED);
        if (incomplete == 0) {
            work.add(Work.FINISH);
        }
        return true;
    }

    /** The builder thread described the batch. */
    void finished(Batch described) {
        become(State.FINISHED);
        batch = described;
    }

    /**
     * A part write failed, or a participant left before its contribution was complete: every
     * participant is told to contribute again. False if the batch was no longer being written.
     */
    boolean fail(String reason) {
        if (!state.writing()) {
            return false;
        }
        become(State.FAILED);
        failure = reason;
        sink.metrics().batchFailed();
        return true;
    }

    /**
     * The answer to a participant that polls: pending while the parts are written; once finished,
     * {@link Outcome.Report} for the one participant that takes it (the batch is then delivered)
     * and {@link Outcome.Covered} for everyone else.
     */
    Outcome answer(Handle polling, Ownership ownership) {
        Outcome outcome = switch (state) {
            case OPEN, CLOSED -> Outcome.PENDING;
            case FAILED -> new Outcome.Failed(failure);
            case FINISHED -> {
                if (ownership.takes(this, polling)) {
                    become(State.DELIVERED);
                    yield new Outcome.Report(batch, writer.firstWriteAtMs());
                }
                coveredAnswers++;
                yield new Outcome.Covered(batchId);
            }
            case DELIVERED -> {
                coveredAnswers++;
                yield new Outcome.Covered(batchId);
            }
            case DROPPED -> throw new IllegalStateException("batch " + batchId + " dropped with a live handle");
        };
        if (!(outcome instanceof Outcome.Pending)) {
            seat(polling).resolved = true;
        }
        return outcome;
    }

    /**
     * Whether the builder can leave the coalescer: settled and every handle answered or abandoned.
     * A finished batch nobody took is dropped: an orphan if some participant was told another one
     * reports it (DESIGN invariant 2), else abandoned (its contributors contribute again).
     */
    Retired retire() {
        if (!state.settled()) {
            return Retired.NOT_YET;
        }
        for (Seat s : seats) {
            if (!s.resolved) {
                return Retired.NOT_YET;
            }
        }
        if (state != State.FINISHED) {
            return Retired.RETIRED;
        }
        become(State.DROPPED);
        return coveredAnswers > 0 ? Retired.DROPPED_ORPHANED : Retired.DROPPED_ABANDONED;
    }

    int coveredAnswers() {
        return coveredAnswers;
    }

    // ---- the work queue (under the coalescer's lock) ----

    /** True if a builder thread should be started on this builder now (it has work and none drains it). */
    boolean startDraining() {
        if (draining || work.isEmpty()) {
            return false;
        }
        draining = true;
        return true;
    }

    /** The next work item for the draining thread, or null (the thread stops draining). */
    Work nextWork() {
        Work item = work.poll();
        if (item == null) {
            draining = false;
        }
        return item;
    }

    /** The draining thread wrote a contribution; true if no more is queued. */
    boolean drained(long now) {
        if (!work.isEmpty()) {
            return false;
        }
        lastActivityMs = now;
        return true;
    }

    /** No work queued and no thread draining. */
    boolean idle() {
        return work.isEmpty() && !draining;
    }

    // ---- the builder thread ----

    /**
     * Writes the queued work, one item at a time, until none is left; run on the builder pool once
     * {@link #startDraining} said so. The lock is held between items, never across a write.
     */
    void drain() {
        while (true) {
            Work item;
            synchronized (shop.lock()) {
                item = nextWork();
                if (item == null) {
                    return;
                }
                if (state == State.FAILED) {
                    release(item);
                    continue;
                }
            }
            try {
                if (item instanceof Work.Add add) {
                    write(add.data());
                } else {
                    finish();
                }
            } catch (RuntimeException | Error e) {
                // an Error too: a builder left draining would keep its participants pending forever; the loop
                // goes on, discarding the failed builder's queued work and releasing its bytes
                if (e instanceof Error) {
                    LOG.error("shared batch {} for [{}, {}) hit an error; failing it", batchId, key.lower(),
                        key.upper(), e);
                }
                LOG.warn("shared batch {} for [{}, {}) failed; its {} contributors contribute again: {}", batchId,
                    key.lower(), key.upper(), participants(), e.toString());
                synchronized (shop.lock()) {
                    release(item);
                    // every participant is told to contribute the range again and rewinds when it polls the
                    // answer (Contributor); a barrier that closes before then holds fewer of the copies
                    if (fail(e.toString())) {
                        owner.stoppedJoining(this);
                    }
                    owner.settled(this);
                }
            }
        }
    }

    private void write(ContributionData c) {
        writer.add(c, shop.schemas(), shop.encoder(), shop.blobs());
        synchronized (shop.lock()) {
            release(new Work.Add(c));
            if (shop.mode() == CoalescingMode.BEST_EFFORT && drained(shop.time().milliseconds()) && shop.lingerMs() == 0
                && close()) {
                owner.stoppedJoining(this); // the FINISH it queued is this thread's next item
            }
        }
    }

    private void finish() {
        Batch described = writer.finish(shop.blobs(), described(), closedAtMs(), mayInline());
        synchronized (shop.lock()) {
            if (state != State.FAILED) {
                LOG.debug("batch {} of [{}, {}) written: {} parts, {} participants", described.getBatchId(),
                    described.getLower(), described.getUpper(), described.getParts().size(), participants());
                shop.launch().first("first batch written: [{}, {}), {} parts", described.getLower(),
                    described.getUpper(), described.getParts().size());
                finished(described);
                sink.metrics().batchBuilt(participants());
            }
            owner.settled(this);
        }
    }

    /** Queued bytes of work written or discarded. */
    private void release(Work item) {
        if (item instanceof Work.Add add) {
            shop.totals().queue(add.data().shard(), -add.data().approximateBytes());
        }
    }
}
