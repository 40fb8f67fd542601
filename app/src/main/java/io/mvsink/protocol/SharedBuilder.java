package io.mvsink.protocol;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.batch.BatchWriter;
import io.mvsink.batch.ContributionData;
import io.mvsink.batch.ShardSink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.utils.Time;

/**
 * One shared batch of one {@code (shard, lower, upper)}: its lifecycle, its participants'
 * handles and its queued work. Every transition is a method of this class, which checks it is
 * legal ({@link State#canBecome}); the registry calls them under its lock. The part writing
 * itself ({@link BatchWriter}) runs on the one builder thread that drains this builder at a time.
 */
final class SharedBuilder {
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

    /** The marker after the last contribution: write the open parts and describe the batch. */
    static final Object FINALIZE = new Object();

    record Key(String shard, long lower, long upper) {
    }

    final Key key;
    final ShardSink sink;
    final String batchId = UUID.randomUUID().toString();
    final long openedAtMs;
    final BatchWriter writer;
    private State state = State.OPEN;
    private long lastActivityMs;
    private final List<Handle> handles = new ArrayList<>();
    private final Set<Integer> joined = new HashSet<>();
    private final ArrayDeque<Object> work = new ArrayDeque<>();
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

    SharedBuilder(Key key, ShardSink sink, Time time) {
        this.key = key;
        this.sink = sink;
        this.openedAtMs = time.milliseconds();
        this.lastActivityMs = openedAtMs;
        this.writer = new BatchWriter(key.shard(), key.lower(), key.upper(), batchId, sink, time);
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
        state = next;
    }

    /** A participant joins with its contribution (its work is queued). Only while open. */
    Handle join(SharedBatchRegistry registry, ContributionData c, long now) {
        if (state != State.OPEN) {
            throw new IllegalStateException("batch " + batchId + " is " + state + ": nobody joins it");
        }
        Handle handle = new Handle(registry, this, c);
        handles.add(handle);
        joined.add(c.partition());
        work.add(c);
        handle.updates = c.updates().size();
        if (!c.last()) {
            handle.incomplete = true;
            incomplete++;
        }
        lastActivityMs = now;
        return handle;
    }

    /**
     * The next chunk of {@code h}'s contribution. Queued while the batch's parts may still be
     * written; after its last chunk, a closed builder finishes once every contribution is complete.
     * False if the batch failed meanwhile (the chunk is not needed: everyone contributes again).
     */
    boolean more(Handle h, ContributionData chunk) {
        if (h.builder != this || !h.incomplete) {
            throw new IllegalStateException("batch " + batchId + ": partition " + chunk.partition()
                + " sends a chunk of a contribution that is complete or not in this batch");
        }
        if (!state.writing()) {
            return false;
        }
        work.add(chunk);
        h.updates += chunk.updates().size();
        if (chunk.last()) {
            h.incomplete = false;
            incomplete--;
            if (state == State.CLOSED && incomplete == 0) {
                work.add(FINALIZE);
            }
        }
        return true;
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
        return handles.stream().filter(h -> !h.resolved()).map(h -> h.contribution.partition()).toList();
    }

    int participants() {
        return handles.size();
    }

    List<Integer> partitions() {
        return handles.stream().map(h -> h.contribution.partition()).toList();
    }

    /** What each participant contributed, in the order they joined (for the batch's description). */
    List<Contribution> described() {
        return handles.stream().map(h -> new Contribution(h.contribution.partition(), h.contribution.lower(),
            h.contribution.upper(), h.updates)).toList();
    }

    /** When the last participant closed its range. */
    long closedAtMs() {
        long closedAt = 0;
        for (Handle h : handles) {
            closedAt = Math.max(closedAt, h.contribution.closedAtMs());
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
            work.add(FINALIZE);
        }
        return true;
    }

    /** The builder thread described the batch. */
    void finished(Batch described) {
        become(State.FINISHED);
        batch = described;
    }

    /** A part write failed: every participant is told to contribute again. */
    void failed(String reason) {
        become(State.FAILED);
        failure = reason;
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
            polling.resolve();
        }
        return outcome;
    }

    /**
     * Whether the builder can leave the registry: settled and every handle answered or abandoned.
     * A finished batch nobody took is dropped: an orphan if some participant was told another one
     * reports it (DESIGN invariant 2), else abandoned (its contributors contribute again).
     */
    Retired retire() {
        if (!state.settled()) {
            return Retired.NOT_YET;
        }
        for (Handle h : handles) {
            if (!h.resolved()) {
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

    // ---- the work queue (under the registry's lock) ----

    /** True if a builder thread should be started on this builder now (it has work and none drains it). */
    boolean startDraining() {
        if (draining || work.isEmpty()) {
            return false;
        }
        draining = true;
        return true;
    }

    /** The next work item for the draining thread, or null (the thread stops draining). */
    Object nextWork() {
        Object item = work.poll();
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
}
