package io.mvsink.read;

import io.mvsink.registry.SubjectVersion;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads a poll's {@link Piece}s on a small pool of its own while the subscription delivers the earlier ones: at
 * most {@link #AHEAD} pieces are read (fetched, decoded, consolidated) ahead of the one being delivered, so a
 * catch-up of many seals holds at most {@code AHEAD + 1} pieces' changes, and a piece's blob reads wait on the
 * network while the subscriber's listener works. The listener is still called on the polling thread only.
 * A reading task touches no shard state (its batches are chosen beforehand), only the thread-safe blob store and
 * registry. What a read throws reaches {@link #next} unwrapped; a failure cancels the reads still running.
 */
final class ReadAhead implements AutoCloseable {
    static final int AHEAD = 2;

    private final ExecutorService pool;

    ReadAhead(String shard) {
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(AHEAD, r -> {
            Thread thread = new Thread(r, "mvsink-subscription-read-" + shard + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The reads of one poll: pieces are added in order ({@link Reads#add}) and handed out in that order. */
    Reads read(SnapshotReader parts) {
        return new Reads(parts);
    }

    /** A piece and its changes, read. */
    record Read(Piece piece, List<Change> changes) {
    }

    /** One poll's reads; {@link #next} yields the pieces' changes in order. */
    final class Reads implements AutoCloseable {
        private final SnapshotReader parts;
        private final Deque<Unread> unread = new ArrayDeque<>();
        private final Deque<Reading> reading = new ArrayDeque<>();

        private record Unread(Piece piece, SubjectVersion target) {
        }

        private record Reading(Piece piece, Future<List<Change>> changes) {
        }

        private Reads(SnapshotReader parts) {
            this.parts = parts;
        }

        /** Adds pieces to read after those added before, their rows read into {@code target}. */
        void add(List<Piece> pieces, SubjectVersion target) {
            pieces.forEach(piece -> unread.add(new Unread(piece, target)));
            while (reading.size() <= AHEAD && !unread.isEmpty()) {
                submitNext();
            }
        }

        private void submitNext() {
            Unread next = unread.removeFirst();
            Piece piece = next.piece();
            reading.add(new Reading(piece, pool.submit(
                () -> parts.changes(piece.batches(), next.target(), piece.lower(), piece.upper()))));
        }

        /** Whether a piece added is not handed out yet. */
        boolean hasNext() {
            return !reading.isEmpty() || !unread.isEmpty();
        }

        /** Whether a piece added is waiting for its read to begin (more than {@link #AHEAD} are ahead of it). */
        boolean hasUnread() {
            return !unread.isEmpty();
        }

        /** The next piece and its changes, waiting for its read; the read after the ones in flight starts when it is taken. */
        Read next() {
            return next(null);
        }

        /** As {@link #next()}, waiting at most {@code wait} (null: as long as it takes); null if not read by then. */
        Read next(Duration wait) {
            if (reading.isEmpty()) {
                submitNext();
            }
            Reading head = reading.peekFirst();
            try {
                List<Change> changes = wait == null ? head.changes().get()
                    : head.changes().get(wait.toNanos(), TimeUnit.NANOSECONDS);
                reading.removeFirst();
                return new Read(head.piece(), changes);
            } catch (TimeoutException e) {
                return null;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException("reading a subscription's parts failed", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading a subscription's parts", e);
            }
        }

        /** Starts reading the next piece not yet begun, if any (call once the piece taken is delivered). */
        void advance() {
            if (!unread.isEmpty()) {
                submitNext();
            }
        }

        /** Cancels the reads still in flight (after a failure or an early end). */
        @Override
        public void close() {
            reading.forEach(r -> r.changes().cancel(true));
            reading.clear();
            unread.clear();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
