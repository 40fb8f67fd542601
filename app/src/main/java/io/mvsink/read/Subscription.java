package io.mvsink.read;

import io.mvsink.blob.BlobNotFoundException;
import io.mvsink.consensus.ShardFollower;
import io.mvsink.consensus.ShardFollower.Advance;
import io.mvsink.consensus.ShardState;
import io.mvsink.registry.SubjectVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A shard followed seal by seal (from {@link ShardReader#subscribe} or {@link ShardReader#resume}).
 *
 * <p><b>Why a resume is exact.</b> The subscription delivers, for each seal {@code [lower, upper)},
 * the updates with {@code lower <= time < upper}, read from whatever live batches of the current
 * state cover that range (not only the batches the seal added: a merge may have replaced them),
 * consolidated per row and time, in time order. That is a function of the range alone, as long as
 * the range starts above the since (merges keep every time except those below the since, which
 * they advance to it). So the updates after a token are the same whether a subscription carried on
 * or a new one resumed from the token, and how the seals are grouped changes only where tokens
 * fall, not which updates come in which order.
 *
 * <p>A part may be gone when read: the state read last may be older than a compaction that retired
 * the part and a GC that deleted it (after {@code gc.grace.ms}). The subscription then reads the
 * topic to its end and reads again from the newer state, once; a second miss is a
 * {@link SubscriptionLaggedException}, and a resume from the last token reads afresh. Not thread-safe.
 */
public final class Subscription {
    /** How long one call reads on to seals that commit while it delivers, before it returns (when it has read them). */
    static final Duration READ_ON_FOR = Duration.ofSeconds(2);
    /** How often a poll that reads on looks for new seals while it waits for a piece to be read. */
    static final Duration READ_ON_EVERY = Duration.ofMillis(50);

    private final ShardFollower follower;
    private final SnapshotReader parts;
    private final Listener listener;
    private final Duration timeout;
    /** Advances polled while reading on that the call could not plan: the next call delivers them first. */
    private final List<Advance> held = new ArrayList<>();
    private ResumeToken position;
    private ReadAhead readAhead;

    /** Receives a subscription's output, on the thread that subscribes or polls. */
    public interface Listener {
        /**
         * The rows as of {@code asOf}, in row order, each a change at time {@code asOf} whose diff is the row's
         * net count; {@code token} continues after it (upper {@code asOf + 1}).
         */
        void snapshot(long asOf, List<Change> rows, ResumeToken token);

        /** One seal's changes (or a catch-up's, over several seals), in time order; {@code token} continues after it. */
        void seal(List<Change> changes, ResumeToken token);
    }

    Subscription(ShardFollower follower, SnapshotReader parts, Listener listener, Duration timeout) {
        this.follower = follower;
        this.parts = parts;
        this.listener = listener;
        this.timeout = timeout;
    }

    void start(long asOf) {
        ShardState state = follower.state();
        List<Change> rows = parts.rows(state, asOf);
        position = ResumeToken.start(follower.topic(), state.shard()).at(state.seqno(), asOf + 1);
        listener.snapshot(asOf, rows, position);
        catchUp(state);
    }

    void resume(ResumeToken token) {
        ShardState state = follower.state();
        token.requireReadable(follower.topic(), state);
        position = token;
        catchUp(state);
    }

    private void catchUp(ShardState state) {
        if (position.upper() < state.upper()) {
            deliver(List.of(new Advance(state.seqno(), position.upper(), state.upper())));
        }
    }

    /** The token after the last delivery. */
    public ResumeToken position() {
        return position;
    }

    /**
     * Delivers the seals that committed since the last call, waiting at most {@code wait} for one; while it
     * delivers, it reads on to seals that commit meanwhile for up to {@link #READ_ON_FOR}, then returns once those
     * it began are delivered.
     */
    public void poll(Duration wait) {
        List<Advance> advances = new ArrayList<>(held);
        held.clear();
        advances.addAll(follower.poll(advances.isEmpty() ? wait : Duration.ZERO));
        deliver(advances);
    }

    private void deliver(List<Advance> advances) {
        List<Advance> queue = new ArrayList<>(advances);
        boolean retried = false;
        while (!queue.isEmpty()) {
            try {
                deliverRead(queue);
                return;
            } catch (BlobNotFoundException e) {
                if (retried) {
                    throw new SubscriptionLaggedException("shard " + follower.state().shard() + ": a part of the "
                        + "state read for the seals after token " + position + " is gone (" + e.getMessage()
                        + "), even after reading the consensus topic again: a subscriber that reads a state later "
                        + "than gc.grace.ms after a compaction retired its parts finds them deleted; resume from "
                        + "token " + position, e);
                }
                retried = true;
                queue.addAll(held);
                held.clear();
                queue.addAll(follower.catchUp(timeout));
            }
        }
    }

    /**
     * Delivers the advances (contiguous, appended to as it reads on) piece by piece ({@link Piece#plan}): each seal
     * as soon as the batches that cover it are read, the next pieces read ahead meanwhile ({@link ReadAhead}). While
     * nothing is left to read ahead and the call has run less than {@link #READ_ON_FOR}, it polls the follower
     * without waiting and plans the seals that committed since, before each piece it takes and every
     * {@link #READ_ON_EVERY} while it waits for one: a subscriber behind the sink never waits between polls for a
     * read to start, nor leaves a reading thread idle while a seal waits. Rows are read into the subject's latest
     * version as of this call, fetched again when a seal read on to carries a schema id the call has not seen: each
     * part is read into a version fetched after the part was sealed, so the version can read it (the subject is
     * backward compatible). A merged batch that straddles the upper a read-on plan starts from is read again by it.
     */
    private void deliverRead(List<Advance> advances) {
        ShardState state = follower.state();
        // a subscriber that lags the since lag behind the upper: the message names its own token
        position.requireReadable(follower.topic(), state);
        List<Piece> pieces = Piece.plan(state, position.upper(), advances);
        if (pieces.isEmpty()) {
            return;
        }
        long upper = pieces.get(pieces.size() - 1).upper();
        if (upper > state.upper()) {
            throw new IllegalArgumentException("shard " + state.shard() + " is sealed below " + state.upper()
                + "; [" + position.upper() + ", " + upper + ") is not sealed yet");
        }
        Target target = new Target(parts.latest(), pieces);
        long readOnUntil = System.nanoTime() + READ_ON_FOR.toNanos();
        try (ReadAhead.Reads reads = readAhead().read(parts)) {
            reads.add(pieces, target.version());
            while (reads.hasNext()) {
                boolean readingOn = !reads.hasUnread() && System.nanoTime() < readOnUntil;
                if (readingOn) {
                    upper = readOn(advances, reads, target, upper);
                }
                // while reading on, it looks for new seals again each READ_ON_EVERY until the piece is read
                ReadAhead.Read read = reads.next(readingOn && !reads.hasUnread() ? READ_ON_EVERY : null);
                if (read != null) {
                    deliver(read.piece(), read.changes());
                    reads.advance();
                }
            }
        }
    }

    /**
     * Polls the follower without waiting and adds the pieces of what committed since to {@code reads}, planned from
     * {@code upper} (the last planned upper), which it returns moved on; the advances are added to {@code advances}
     * too, so that a retry after a missing part delivers them. Advances it cannot plan because the since overtook
     * {@code upper} are held for the next call, which reports it ({@link ResumeToken#requireReadable}); it reads on to
     * nothing while it holds some.
     */
    private long readOn(List<Advance> advances, ReadAhead.Reads reads, Target target, long upper) {
        if (!held.isEmpty()) {
            return upper;
        }
        List<Advance> more = follower.poll(Duration.ZERO);
        if (more.isEmpty()) {
            return upper;
        }
        ShardState state = follower.state();
        if (state.since() > 0 && upper <= state.since()) {
            held.addAll(more);
            return upper;
        }
        advances.addAll(more);
        List<Piece> pieces = Piece.plan(state, upper, more);
        if (pieces.isEmpty()) {
            return upper;
        }
        if (!target.reads(pieces)) {
            target.refresh(parts.latest(), pieces);
        }
        reads.add(pieces, target.version());
        return pieces.get(pieces.size() - 1).upper();
    }

    /**
     * The version a call reads rows into, and the schema ids of the parts planned before it was fetched: a part of
     * such an id was sealed before the fetch, so the version is at least as new as the part's writer.
     */
    private static final class Target {
        private SubjectVersion version;
        private final Set<Integer> sealedBefore = new HashSet<>();

        Target(SubjectVersion version, List<Piece> plannedBefore) {
            refresh(version, plannedBefore);
        }

        void refresh(SubjectVersion latest, List<Piece> plannedBefore) {
            version = latest;
            sealedBefore.add(latest.id());
            plannedBefore.forEach(piece -> sealedBefore.addAll(schemaIds(piece)));
        }

        SubjectVersion version() {
            return version;
        }

        /** Whether every part of {@code pieces} has an id sealed before the version was fetched. */
        boolean reads(List<Piece> pieces) {
            return pieces.stream().allMatch(piece -> sealedBefore.containsAll(schemaIds(piece)));
        }

        private static Set<Integer> schemaIds(Piece piece) {
            Set<Integer> ids = new HashSet<>();
            piece.batches().forEach(batch -> batch.getParts().forEach(part -> ids.add(part.getSchemaId())));
            return ids;
        }
    }

    /** Hands each advance of {@code piece} its slice of the piece's {@code changes} (in time order). */
    private void deliver(Piece piece, List<Change> changes) {
        int from = 0;
        for (Advance advance : piece.advances()) {
            int to = from;
            while (to < changes.size() && changes.get(to).time() < advance.upper()) {
                to++;
            }
            ResumeToken token = position.at(advance.seqno(), advance.upper());
            listener.seal(changes.subList(from, to), token);
            position = token;
            from = to;
        }
    }

    private ReadAhead readAhead() {
        if (readAhead == null) {
            readAhead = new ReadAhead(follower.state().shard());
        }
        return readAhead;
    }

    /** Stops the threads that read ahead (the reader's {@link ShardReader#close} does). */
    void close() {
        if (readAhead != null) {
            readAhead.close();
        }
    }
}
