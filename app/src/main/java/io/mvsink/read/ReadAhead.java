package io.mvsink.read;

import io.mvsink.registry.SubjectVersion;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

    /** The pieces of one poll, read in order, each handed out once it is read. */
    Reads read(SnapshotReader parts, SubjectVersion target, List<Piece> pieces) {
        return new Reads(parts, target, pieces);
    }

    /** One poll's reads; {@link #next} yields the pieces' changes in order. */
    final class Reads implements AutoCloseable {
        private final SnapshotReader parts;
        private final SubjectVersion target;
        private final Iterator<Piece> unread;
        private final Deque<Future<List<Change>>> reading = new ArrayDeque<>();

        private Reads(SnapshotReader parts, SubjectVersion target, List<Piece> pieces) {
            this.parts = parts;
            this.target = target;
            this.unread = pieces.iterator();
            for (int i = 0; i <= AHEAD && unread.hasNext(); i++) {
                submitNext();
            }
        }

        private void submitNext() {
            Piece piece = unread.next();
            reading.add(pool.submit(() -> parts.changes(piece.batches(), target, piece.lower(), piece.upper())));
        }

        /** The next piece's changes, waiting for its read; the read after the ones in flight starts when it is taken. */
        List<Change> next() {
            Future<List<Change>> head = reading.removeFirst();
            try {
                return head.get();
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
            if (unread.hasNext()) {
                submitNext();
            }
        }

        /** Cancels the reads still in flight (after a failure or an early end). */
        @Override
        public void close() {
            reading.forEach(f -> f.cancel(true));
            reading.clear();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
