package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.blob.BlobStore;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.registry.SchemaRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM-wide shared batch registry: one per process, injected into the processors. Tasks
 * contribute; contributions of one {@code (shard, lower, upper)} feed one {@link SharedBuilder}
 * according to the {@link CoalescingMode}; builders run on a named, bounded pool.
 *
 * <p><b>Ownership.</b> Every decision about a builder — who joins, when it closes, whether it
 * finished or failed, who owns it, when it is retired — is taken under one lock, {@link #lock}.
 * A finished batch is owned by the first of its participants that polls it: that participant is
 * told {@link Outcome.Report} and reports it from its own stream thread in its own transaction;
 * every other participant is told {@link Outcome.Covered}. A failed batch tells every
 * participant {@link Outcome.Failed}. A builder leaves the registry only when every handle is
 * resolved (answered or abandoned), so nothing can drop a batch a live participant waits for;
 * {@link #tick()} and the gauges only read, or close barriers that timed out (closing never
 * changes ownership). If every participant abandons a finished batch, nobody reports it and its
 * contributors contribute again when they are re-initialised (the batch's blobs are garbage).
 *
 * <p><b>Never blocking a stream thread.</b> {@link #contribute} and {@link Handle#poll} take the
 * lock for a few map operations only; encoding and blob I/O happen on the pool. Queued
 * contribution bytes are bounded: over the bound, {@code contribute} refuses and the task keeps
 * the contribution in its buffer and offers it again later (back-pressure, not memory).
 */
public final class SharedBatchRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedBatchRegistry.class);

    /** A task hands over a range at most this many bytes at a time (less under a small queue bound). */
    static final long CHUNK_BYTES = 1L << 20;

    private final CoalescingMode mode;
    private final LaunchLog launch = new LaunchLog();
    private final BlobStore blobs;
    private final SchemaRegistry schemas;
    private final PartEncoder encoder;
    private final Time time;
    private final long barrierTimeoutMs;
    private final long lingerMs;
    private final long maxQueuedBytes;
    private final ThreadPoolExecutor pool;
    private final Ownership ownership;

    private final Object lock = new Object();
    private final Map<String, LocalShard> shards = new HashMap<>();
    private final Map<SharedBuilder.Key, SharedBuilder> open = new HashMap<>();
    private final Set<SharedBuilder> live = new HashSet<>();
    private long queuedBytes;
    private final Map<String, Long> queuedByShard = new HashMap<>();
    private long orphaned;

    public SharedBatchRegistry(CoalescingMode mode, BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder,
                               Time time, long barrierTimeoutMs, long maxQueuedBytes, int threads) {
        this(mode, blobs, schemas, encoder, time, barrierTimeoutMs, 0, maxQueuedBytes, threads);
    }

    /**
     * @param lingerMs in best-effort mode, how long a builder whose work has drained stays open
     *                 for more joins (0: it closes as soon as its work drains)
     */
    public SharedBatchRegistry(CoalescingMode mode, BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder,
                               Time time, long barrierTimeoutMs, long lingerMs, long maxQueuedBytes, int threads) {
        this(mode, blobs, schemas, encoder, time, barrierTimeoutMs, lingerMs, maxQueuedBytes, threads,
            Ownership.FIRST_POLLER);
    }

    /** With another ownership rule: only for a test that breaks the rule on purpose and sees the detector fire. */
    SharedBatchRegistry(CoalescingMode mode, BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder,
                        Time time, long barrierTimeoutMs, long lingerMs, long maxQueuedBytes, int threads,
                        Ownership ownership) {
        this.ownership = ownership;
        this.lingerMs = lingerMs;
        this.mode = mode;
        this.blobs = blobs;
        this.schemas = schemas;
        this.encoder = encoder;
        this.time = time;
        this.barrierTimeoutMs = barrierTimeoutMs;
        this.maxQueuedBytes = maxQueuedBytes;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "mvsink-builder-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
    }

    /**
     * One shard as this JVM runs it: where its parts go, its local tasks and where they stand, its
     * minter (null: each task cuts its own ranges), and its batches delivered to a participant whose
     * report may not have committed yet.
     */
    private record LocalShard(ShardSink sink, Participants tasks, RangeMinter minter, Deliveries deliveries) {
    }

    public CoalescingMode mode() {
        return mode;
    }

    /**
     * Declares a shard before its tasks contribute: where its parts go and its metrics. Without a
     * minter each task cuts its own ranges (every closed interval up to its frontier). A shard
     * runs once per JVM: a second app of the same shard name would share its builders, barriers
     * and gauges, so it is refused until the first one is removed.
     */
    public void addShard(ShardSink sink) {
        addShard(sink, null);
    }

    /** Declares a shard whose tasks contribute the ranges {@code minter} mints for this JVM. */
    public void addShard(ShardSink sink, RangeMinter minter) {
        synchronized (lock) {
            if (shards.containsKey(sink.shard())) {
                throw new IllegalStateException("shard " + sink.shard() + " already runs in this JVM: two apps of "
                    + "one shard name would share its batch builders (give each app its own shard.name, or close "
                    + "the first)");
            }
            shards.put(sink.shard(), new LocalShard(sink, new Participants(), minter, new Deliveries()));
        }
    }

    /** The shard's app closed: another app of the shard may run in this JVM from now on. */
    public void removeShard(String shard) {
        synchronized (lock) {
            shards.remove(shard);
        }
    }

    /** A task of the shard that contributes nothing yet now runs in this JVM (barriers wait for it). */
    public Participants.Position register(String shard, int partition) {
        return register(shard, partition, BufferedBytes.NONE, Long.MIN_VALUE);
    }

    /**
     * A task of the shard now runs in this JVM and contributes next from {@code lower} (barriers
     * and the minter wait for it); {@code bytes}: what its buffer holds per range. Its position is
     * the one record of its contribution progress.
     */
    public Participants.Position register(String shard, int partition, BufferedBytes bytes, long lower) {
        synchronized (lock) {
            LocalShard local = shard(shard);
            local.deliveries().forget(partition);
            return local.tasks().join(partition, bytes, lower);
        }
    }

    /**
     * The range a task contributes next from its lower: the shard's minted range there (minting the
     * next one when it is due), or, for a shard without a minter, everything up to the task's
     * closed frontier. Empty when there is nothing to contribute yet.
     */
    public Optional<Range> nextRange(String shard, RangeMinter.Ask ask) {
        synchronized (lock) {
            LocalShard local = shard(shard);
            if (local.minter() == null) {
                local.tasks().asked(ask.partition(), ask.lower(), ask.closedUpTo());
                return ask.lower() < ask.closedUpTo()
                    ? Optional.of(new Range(ask.lower(), ask.closedUpTo())) : Optional.empty();
            }
            return local.minter().next(local.tasks(), ask, idle(shard));
        }
    }

    /**
     * Holds the shard's minting (no new range) while {@code hold}: its app has not run yet, so the
     * set of local tasks is still forming. Ranges already minted are still handed out.
     */
    public void holdMinting(String shard, boolean hold) {
        synchronized (lock) {
            RangeMinter minter = shard(shard).minter();
            if (minter != null) {
                minter.hold(hold);
            }
        }
    }

    /** False while the queued contribution bytes are at their bound: an offer now would be refused. */
    public boolean accepting() {
        synchronized (lock) {
            return queuedBytes == 0 || queuedBytes < maxQueuedBytes;
        }
    }

    /**
     * A task of the shard left this JVM (barriers stop waiting for it). The other local
     * participants of every batch it took part in that is not known to be sealed (delivered
     * recently, or still live) are told to contribute those ranges again at once
     * ({@link #takeRestart}), instead of waiting for {@code recontribute.timeout.ms}: a batch it
     * owned may never be reported, and one that holds its partition may conflict with the copies
     * its next owner contributes elsewhere (issue 12 item 13; see {@link Deliveries}).
     */
    public void deregister(String shard, int partition) {
        synchronized (lock) {
            LocalShard local = shards.get(shard);
            if (local == null) {
                return; // the shard's app closed first
            }
            local.tasks().leave(partition);
            local.deliveries().forget(partition);
            local.deliveries().participantLeft(partition, local.tasks().partitions());
            for (SharedBuilder b : new ArrayList<>(live)) {
                if (b.key.shard().equals(shard) && b.hasJoined(partition) && b.state() != SharedBuilder.State.FAILED) {
                    // an open barrier holding the partition takes no more joins: a task that joined it later
                    // would not be told, and its only copy of the range would hold the partition that left
                    close(b);
                    local.deliveries().restartOthers(partition, b.partitions(),
                        new Range(b.key.lower(), b.key.upper()), local.tasks().partitions());
                }
            }
            closeSatisfiedBarriers(shard);
        }
    }

    /**
     * The task will contribute again from {@code lower} (its batch failed, or waited too long):
     * barriers of ranges from there on wait for it again.
     */
    public void rewind(String shard, int partition, long lower) {
        synchronized (lock) {
            shard(shard).tasks().rewind(partition, lower);
        }
    }

    /**
     * Offers a contribution of a range the shard's minter handed out (or, without a minter, the
     * task's own). Never blocks; empty when the queued bytes are at their bound (keep the
     * contribution and offer it again later).
     */
    public Optional<Handle> contribute(ContributionData c) {
        return contribute(c, false);
    }

    /**
     * Offers a contribution; {@code copy}: a piece of a task's contributing again
     * ({@link Contributor}), which the minter does not wait for.
     */
    public Optional<Handle> contribute(ContributionData c, boolean copy) {
        long size = c.approximateBytes();
        synchronized (lock) {
            LocalShard local = shard(c.shard());
            ShardSink sink = local.sink();
            if (queuedBytes > 0 && queuedBytes + size > maxQueuedBytes) {
                sink.metrics().builderRefused();
                return Optional.empty();
            }
            SharedBuilder.Key key = new SharedBuilder.Key(c.shard(), c.lower(), c.upper());
            SharedBuilder builder = mode == CoalescingMode.NONE ? null : open.get(key);
            boolean shared = true;
            if (builder == null || builder.hasJoined(c.partition())) {
                // a task contributing the same range twice gets a batch of its own: a batch holds
                // at most one contribution per partition
                shared = mode != CoalescingMode.NONE && builder == null;
                builder = new SharedBuilder(key, sink, time);
                live.add(builder);
                if (shared) {
                    open.put(key, builder);
                }
            }
            Handle handle = builder.join(this, c, time.milliseconds());
            if (copy) {
                builder.joinedWithCopy();
            } else {
                builder.joinedWithRange();
            }
            queue(c.shard(), size);
            local.tasks().handedOff(c.partition(), c.upper());
            if (!shared) {
                close(builder);
            } else if (mode == CoalescingMode.BARRIER) {
                closeSatisfiedBarriers(c.shard());
            }
            schedule(builder);
            return Optional.of(handle);
        }
    }

    /**
     * Closes barriers whose timeout passed and best-effort builders that lingered idle long
     * enough. Called from task punctuations; reads the injected clock.
     */
    public void tick() {
        synchronized (lock) {
            long now = time.milliseconds();
            for (SharedBuilder b : new ArrayList<>(open.values())) {
                if (mode == CoalescingMode.BARRIER && now - b.openedAtMs >= barrierTimeoutMs) {
                    b.sink.metrics().barrierTimedOut();
                    close(b);
                } else if (mode == CoalescingMode.BEST_EFFORT && b.idle() && now - b.lastActivityMs() >= lingerMs) {
                    close(b);
                }
            }
        }
    }

    Outcome poll(Handle h) {
        synchronized (lock) {
            if (h.resolved()) {
                throw new IllegalStateException("handle of batch " + h.builder.batchId + " was already resolved");
            }
            SharedBuilder b = h.builder;
            Outcome outcome = b.answer(h, ownership);
            if (outcome instanceof Outcome.Report) {
                shard(b.key.shard()).deliveries().delivered(b);
            }
            if (h.resolved()) {
                retire(b);
            }
            return outcome;
        }
    }

    void abandon(Handle h) {
        synchronized (lock) {
            if (!h.resolved()) {
                if (h.incomplete && h.builder.state().writing()) {
                    // the rest of its contribution never comes: the batch cannot be finished
                    LOG.info("shard {}: partition {} left batch {} for [{}, {}) before its contribution was complete; "
                        + "its contributors contribute again", h.builder.key.shard(), h.contribution.partition(),
                        h.builder.batchId, h.builder.key.lower(), h.builder.key.upper());
                    fail(h.builder, "partition " + h.contribution.partition() + " left before its contribution was complete");
                }
                h.resolve();
                retire(h.builder);
            }
        }
    }

    /**
     * Hands over the next chunk of a contribution whose first chunk {@code h} answers. Never
     * blocks; false when the queued bytes are at their bound (keep the chunk and hand it over
     * again later). A chunk for a batch that failed meanwhile is dropped (its task is told).
     */
    public boolean more(Handle h, ContributionData chunk) {
        long size = chunk.approximateBytes();
        synchronized (lock) {
            SharedBuilder b = h.builder;
            if (queuedBytes > 0 && queuedBytes + size > maxQueuedBytes) {
                b.sink.metrics().builderRefused();
                return false;
            }
            if (b.more(h, chunk)) {
                queue(chunk.shard(), size);
                schedule(b);
            }
            return true;
        }
    }

    /**
     * How many bytes of a range a task hands over at a time: a part of the queue's bound, so that
     * a large range never sits in the heap whole and several tasks' chunks fit the queue at once.
     */
    public long chunkBytes() {
        return Math.max(1024, Math.min(CHUNK_BYTES, maxQueuedBytes / 8));
    }

    /** Builders not yet retired (open, building, or finished and waiting for their owner), of every shard. */
    public int liveBatches() {
        synchronized (lock) {
            return live.size();
        }
    }

    /**
     * The range {@code partition} should contribute again because another participant of a batch
     * holding its contribution left the JVM before the batch was known to be sealed
     * ({@link #deregister}); empty if none. Taking it clears it.
     */
    public Optional<Range> takeRestart(String shard, int partition) {
        synchronized (lock) {
            LocalShard local = shards.get(shard);
            return local == null ? Optional.empty() : local.deliveries().takeRestart(partition);
        }
    }

    /** Contribution bytes waiting for a builder thread, of every shard of this JVM. */
    public long queuedBytes() {
        synchronized (lock) {
            return queuedBytes;
        }
    }

    /** Contribution bytes of {@code shard} waiting for a builder thread. */
    public long queuedBytes(String shard) {
        synchronized (lock) {
            return queuedByShard.getOrDefault(shard, 0L);
        }
    }

    /** Builders of {@code shard} not yet retired. */
    public int liveBatches(String shard) {
        synchronized (lock) {
            int n = 0;
            for (SharedBuilder b : live) {
                if (b.key.shard().equals(shard)) {
                    n++;
                }
            }
            return n;
        }
    }

    /**
     * Finished batches that nobody reported although participants were told another one does
     * ({@link Outcome.Covered}): must stay 0; a broken ownership rule makes it count.
     */
    public long orphanedBatches() {
        synchronized (lock) {
            return orphaned;
        }
    }

    // ---- under the lock ----

    /**
     * No builder that a task joined with a range from the shard's minter is open or writing: the
     * last minted range is handed off to storage. A builder that holds only copy pieces does not count, even where a
     * piece has the shape of a minted range (one interval at a steady rate): after a kill the tasks
     * that stayed would otherwise wait for every piece to be written (issue 12 item 13).
     */
    private boolean idle(String shard) {
        for (SharedBuilder b : live) {
            if (b.key.shard().equals(shard) && b.state().writing() && b.ranged()) {
                return false;
            }
        }
        return true;
    }

    private void queue(String shard, long bytes) {
        queuedBytes += bytes;
        queuedByShard.merge(shard, bytes, (a, b) -> a + b == 0 ? null : a + b);
    }

    private LocalShard shard(String shard) {
        LocalShard local = shards.get(shard);
        if (local == null) {
            throw new IllegalStateException("shard " + shard + " was not added to the batch registry");
        }
        return local;
    }

    private void fail(SharedBuilder b, String reason) {
        if (!b.state().writing()) {
            return;
        }
        b.failed(reason);
        open.remove(b.key, b);
        b.sink.metrics().batchFailed();
    }

    private void close(SharedBuilder b) {
        if (b.close()) {
            open.remove(b.key, b);
            schedule(b);
        }
    }

    private void closeSatisfiedBarriers(String shard) {
        if (mode != CoalescingMode.BARRIER) {
            return;
        }
        Participants tasks = shard(shard).tasks();
        Map<Integer, Long> failedFrom = failedFrom(shard);
        for (SharedBuilder b : new ArrayList<>(open.values())) {
            if (b.key.shard().equals(shard) && !b.mayStillBeJoined(tasks, failedFrom)) {
                close(b);
            }
        }
    }

    /**
     * Per partition, the lowest lower of a failed batch of the shard that it has not been told of
     * yet: told, it contributes again from there, so a barrier there still waits for it.
     */
    private Map<Integer, Long> failedFrom(String shard) {
        Map<Integer, Long> from = new HashMap<>();
        for (SharedBuilder b : live) {
            if (b.key.shard().equals(shard) && b.state() == SharedBuilder.State.FAILED) {
                for (int p : b.unanswered()) {
                    from.merge(p, b.key.lower(), Math::min);
                }
            }
        }
        return from;
    }

    private void schedule(SharedBuilder b) {
        if (b.startDraining()) {
            pool.execute(ShardLogContext.wrap(b.key.shard(), () -> drain(b)));
        }
    }

    private void retire(SharedBuilder b) {
        switch (b.retire()) {
            case NOT_YET -> {
                return;
            }
            case DROPPED_ORPHANED -> {
                orphaned++;
                b.sink.metrics().orphanedBatch();
                LOG.error("shard {}: batch {} for [{}, {}) orphaned: {} participants were told it is reported, "
                    + "nobody reported it", b.key.shard(), b.batchId, b.key.lower(), b.key.upper(), b.coveredAnswers());
            }
            case DROPPED_ABANDONED -> b.sink.metrics().batchAbandoned();
            case RETIRED -> { }
        }
        live.remove(b);
    }

    // ---- builder threads ----

    private void drain(SharedBuilder b) {
        while (true) {
            Object item;
            synchronized (lock) {
                item = b.nextWork();
                if (item == null) {
                    return;
                }
                if (b.state() == SharedBuilder.State.FAILED) {
                    if (item instanceof ContributionData c) {
                        queue(c.shard(), -c.approximateBytes());
                    }
                    continue;
                }
            }
            try {
                if (item == SharedBuilder.FINALIZE) {
                    var batch = b.writer.finish(blobs, b.described(), b.closedAtMs(), b.mayInline());
                    synchronized (lock) {
                        if (b.state() != SharedBuilder.State.FAILED) {
                            LOG.debug("batch {} of [{}, {}) written: {} parts, {} participants", batch.getBatchId(),
                                batch.getLower(), batch.getUpper(), batch.getParts().size(), b.participants());
                            launch.first("first batch written: [{}, {}), {} parts", batch.getLower(), batch.getUpper(),
                                batch.getParts().size());
                            b.finished(batch);
                            b.sink.metrics().batchBuilt(b.participants());
                        }
                        retire(b);
                    }
                } else {
                    ContributionData c = (ContributionData) item;
                    b.writer.add(c, schemas, encoder, blobs);
                    synchronized (lock) {
                        queue(c.shard(), -c.approximateBytes());
                        if (mode == CoalescingMode.BEST_EFFORT && b.drained(time.milliseconds()) && lingerMs == 0) {
                            close(b);
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                // an Error too: a builder left draining would keep its handles pending forever; the loop
                // goes on, discarding the failed builder's queued work and releasing its bytes
                if (e instanceof Error) {
                    LOG.error("shared batch {} for [{}, {}) hit an error; failing it", b.batchId, b.key.lower(),
                        b.key.upper(), e);
                }
                LOG.warn("shared batch {} for [{}, {}) failed; its {} contributors contribute again: {}", b.batchId,
                    b.key.lower(), b.key.upper(), b.participants(), e.toString());
                synchronized (lock) {
                    if (item instanceof ContributionData c) {
                        queue(c.shard(), -c.approximateBytes());
                    }
                    // every participant is told to contribute the range again and rewinds when it polls the
                    // answer (Contributor); a barrier that closes before then holds fewer of the copies
                    fail(b, e.toString());
                    retire(b);
                }
            }
        }
    }

    /** Stops the pool; waits a bounded time for running builds and says what it abandoned. */
    @Override
    public void close() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                int abandoned = pool.shutdownNow().size();
                LOG.warn("batch registry closed with {} builder jobs abandoned; their tasks contribute again", abandoned);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            if (!live.isEmpty()) {
                LOG.info("batch registry closed with {} unreported batches; their tasks contribute again", live.size());
            }
        }
    }
}
