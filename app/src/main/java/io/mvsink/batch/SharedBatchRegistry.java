package io.mvsink.batch;

import io.mvsink.blob.BlobStore;
import io.mvsink.protocol.BufferedBytes;
import io.mvsink.protocol.Range;
import io.mvsink.protocol.RangeMinter;
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

    private final CoalescingMode mode;
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
    private final Map<String, ShardSink> shards = new HashMap<>();
    private final Map<String, Map<Integer, Long>> localTasks = new HashMap<>();
    private final Map<String, RangeMinter> minters = new HashMap<>();
    /** Per shard, batches delivered to a participant whose report may not have committed yet. */
    private final Map<String, Deliveries> deliveries = new HashMap<>();
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
            shards.put(sink.shard(), sink);
            localTasks.computeIfAbsent(sink.shard(), s -> new HashMap<>());
            if (minter != null) {
                minters.put(sink.shard(), minter);
            }
        }
    }

    /** The shard's app closed: another app of the shard may run in this JVM from now on. */
    public void removeShard(String shard) {
        synchronized (lock) {
            shards.remove(shard);
            localTasks.remove(shard);
            minters.remove(shard);
        }
    }

    /** A task of the shard now runs in this JVM (barriers wait for it). */
    public void register(String shard, int partition) {
        register(shard, partition, BufferedBytes.NONE);
    }

    /** A task of the shard now runs in this JVM (barriers and the minter wait for it); {@code bytes}: its buffer. */
    public void register(String shard, int partition, BufferedBytes bytes) {
        synchronized (lock) {
            localTasks.computeIfAbsent(shard, s -> new HashMap<>()).putIfAbsent(partition, Long.MIN_VALUE);
            RangeMinter minter = minters.get(shard);
            if (minter != null) {
                minter.join(partition, bytes);
            }
        }
    }

    /**
     * The range a task contributes next from its lower: the shard's minted range there (minting the
     * next one when it is due), or, for a shard without a minter, everything up to the task's
     * closed frontier. Empty when there is nothing to contribute yet.
     */
    public Optional<Range> nextRange(String shard, RangeMinter.Ask ask) {
        synchronized (lock) {
            RangeMinter minter = minters.get(shard);
            if (minter == null) {
                return ask.lower() < ask.closedUpTo()
                    ? Optional.of(new Range(ask.lower(), ask.closedUpTo())) : Optional.empty();
            }
            return minter.next(ask, idle(shard));
        }
    }

    /**
     * Holds the shard's minting (no new range) while {@code hold}: its app has not run yet, so the
     * set of local tasks is still forming. Ranges already minted are still handed out.
     */
    public void holdMinting(String shard, boolean hold) {
        synchronized (lock) {
            RangeMinter minter = minters.get(shard);
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
     * A task of the shard left this JVM (barriers stop waiting for it). The batches it owned may
     * never be reported (its transaction may not commit): their other local participants are told
     * to contribute those ranges again at once ({@link #takeRestart}), instead of waiting for
     * {@code recontribute.timeout.ms}.
     */
    public void deregister(String shard, int partition) {
        synchronized (lock) {
            Map<Integer, Long> tasks = localTasks.get(shard);
            if (tasks != null) {
                tasks.remove(partition);
            }
            RangeMinter minter = minters.get(shard);
            if (minter != null) {
                minter.leave(partition);
            }
            Deliveries delivered = deliveries.get(shard);
            if (delivered != null) {
                delivered.ownerLeft(partition, tasks == null ? Set.of() : tasks.keySet());
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
            Map<Integer, Long> tasks = localTasks.get(shard);
            if (tasks != null) {
                tasks.computeIfPresent(partition, (p, at) -> Math.min(at, lower));
            }
            RangeMinter minter = minters.get(shard);
            if (minter != null) {
                minter.rewind(partition, lower);
            }
        }
    }

    /**
     * Offers a contribution. Never blocks; empty when the queued bytes are at their bound (keep
     * the contribution and offer it again later).
     */
    public Optional<Handle> contribute(ContributionData c) {
        long size = c.approximateBytes();
        synchronized (lock) {
            ShardSink sink = shards.get(c.shard());
            if (sink == null) {
                throw new IllegalStateException("shard " + c.shard() + " was not added to the batch registry");
            }
            if (queuedBytes > 0 && queuedBytes + size > maxQueuedBytes) {
                sink.metrics().builderRefused();
                return Optional.empty();
            }
            SharedBuilder.Key key = new SharedBuilder.Key(c.shard(), c.lower(), c.upper());
            SharedBuilder builder = mode == CoalescingMode.NONE ? null : open.get(key);
            boolean shared = true;
            if (builder == null || builder.joined.contains(c.partition())) {
                // a task contributing the same range twice gets a batch of its own: a batch holds
                // at most one contribution per partition
                shared = mode != CoalescingMode.NONE && builder == null;
                builder = new SharedBuilder(key, sink, time);
                live.add(builder);
                if (shared) {
                    open.put(key, builder);
                }
            }
            builder.lastActivityMs = time.milliseconds();
            Handle handle = new Handle(this, builder, c);
            builder.handles.add(handle);
            builder.joined.add(c.partition());
            builder.work.add(c);
            queue(c.shard(), size);
            localTasks.get(c.shard()).computeIfPresent(c.partition(), (p, at) -> Math.max(at, c.upper()));
            RangeMinter minter = minters.get(c.shard());
            if (minter != null) {
                minter.handedOff(c.partition(), c.upper());
            }
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
                } else if (mode == CoalescingMode.BEST_EFFORT && idle(b) && now - b.lastActivityMs >= lingerMs) {
                    close(b);
                }
            }
        }
    }

    private static boolean idle(SharedBuilder b) {
        return b.work.isEmpty() && !b.draining;
    }

    Outcome poll(Handle h) {
        synchronized (lock) {
            if (h.resolved) {
                throw new IllegalStateException("handle of batch " + h.builder.batchId + " was already resolved");
            }
            SharedBuilder b = h.builder;
            Outcome outcome = switch (b.state) {
                case OPEN, CLOSED -> Outcome.PENDING;
                case FAILED -> new Outcome.Failed(b.failure);
                case FINISHED -> {
                    if (ownership.takes(b, h)) {
                        b.state = SharedBuilder.State.DELIVERED;
                        deliveries.computeIfAbsent(b.key.shard(), k -> new Deliveries()).delivered(b, h);
                        yield new Outcome.Report(b.batch, b.firstWriteAtMs());
                    }
                    b.coveredAnswers++;
                    yield new Outcome.Covered(b.batchId);
                }
                case DELIVERED -> {
                    b.coveredAnswers++;
                    yield new Outcome.Covered(b.batchId);
                }
                case DROPPED -> throw new IllegalStateException("batch " + b.batchId + " dropped with a live handle");
            };
            if (!(outcome instanceof Outcome.Pending)) {
                h.resolved = true;
                retireIfDone(b);
            }
            return outcome;
        }
    }

    void abandon(Handle h) {
        synchronized (lock) {
            if (!h.resolved) {
                h.resolved = true;
                h.abandoned = true;
                retireIfDone(h.builder);
            }
        }
    }

    /** Builders not yet retired (open, building, or finished and waiting for their owner), of every shard. */
    public int liveBatches() {
        synchronized (lock) {
            return live.size();
        }
    }

    /**
     * The range {@code partition} should contribute again because a batch holding its contribution
     * was owned by a task that left before its report was known to commit; empty if none. Taking it
     * clears it.
     */
    public Optional<Range> takeRestart(String shard, int partition) {
        synchronized (lock) {
            Deliveries delivered = deliveries.get(shard);
            return delivered == null ? Optional.empty() : delivered.takeRestart(partition);
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

    /** No builder of the shard is open or writing: the last minted range is handed off to storage. */
    private boolean idle(String shard) {
        for (SharedBuilder b : live) {
            if (b.key.shard().equals(shard)
                && (b.state == SharedBuilder.State.OPEN || b.state == SharedBuilder.State.CLOSED)) {
                return false;
            }
        }
        return true;
    }

    private void queue(String shard, long bytes) {
        queuedBytes += bytes;
        queuedByShard.merge(shard, bytes, (a, b) -> a + b == 0 ? null : a + b);
    }

    private void close(SharedBuilder b) {
        if (b.state != SharedBuilder.State.OPEN) {
            return;
        }
        b.state = SharedBuilder.State.CLOSED;
        open.remove(b.key, b);
        b.work.add(SharedBuilder.FINALIZE);
        schedule(b);
    }

    private void closeSatisfiedBarriers(String shard) {
        if (mode != CoalescingMode.BARRIER) {
            return;
        }
        Map<Integer, Long> tasks = localTasks.getOrDefault(shard, Map.of());
        for (SharedBuilder b : new ArrayList<>(open.values())) {
            if (b.key.shard().equals(shard) && everyLocalTaskJoinedOrPassed(b, tasks)) {
                close(b);
            }
        }
    }

    /** A local task that has contributed beyond this builder's lower can no longer join it. */
    private static boolean everyLocalTaskJoinedOrPassed(SharedBuilder b, Map<Integer, Long> tasks) {
        for (Map.Entry<Integer, Long> task : tasks.entrySet()) {
            if (!b.joined.contains(task.getKey()) && task.getValue() <= b.key.lower()) {
                return false;
            }
        }
        return true;
    }

    private void schedule(SharedBuilder b) {
        if (!b.draining && !b.work.isEmpty()) {
            b.draining = true;
            pool.execute(() -> drain(b));
        }
    }

    private void retireIfDone(SharedBuilder b) {
        boolean settled = b.state == SharedBuilder.State.FINISHED || b.state == SharedBuilder.State.DELIVERED
            || b.state == SharedBuilder.State.FAILED;
        if (!settled || !b.allResolved()) {
            return;
        }
        if (b.state == SharedBuilder.State.FINISHED) {
            // nobody took it: every participant left (abandoned), or some were told another one
            // reports it (Covered) while nobody did, which is an orphan (DESIGN invariant 2)
            b.state = SharedBuilder.State.DROPPED;
            if (b.coveredAnswers > 0) {
                orphaned++;
                b.sink.metrics().orphanedBatch();
                LOG.error("shard {}: batch {} for [{}, {}) orphaned: {} participants were told it is reported, "
                    + "nobody reported it", b.key.shard(), b.batchId, b.key.lower(), b.key.upper(), b.coveredAnswers);
            } else {
                b.sink.metrics().batchAbandoned();
            }
        }
        live.remove(b);
    }

    // ---- builder threads ----

    private void drain(SharedBuilder b) {
        while (true) {
            Object item;
            synchronized (lock) {
                item = b.work.poll();
                if (item == null) {
                    b.draining = false;
                    return;
                }
                if (b.state == SharedBuilder.State.FAILED) {
                    if (item instanceof ContributionData c) {
                        queue(c.shard(), -c.approximateBytes());
                    }
                    continue;
                }
            }
            try {
                if (item == SharedBuilder.FINALIZE) {
                    var batch = b.finish(blobs);
                    synchronized (lock) {
                        b.batch = batch;
                        b.state = SharedBuilder.State.FINISHED;
                        b.sink.metrics().batchBuilt(b.handles.size());
                        retireIfDone(b);
                    }
                } else {
                    ContributionData c = (ContributionData) item;
                    b.add(c, schemas, encoder, blobs);
                    synchronized (lock) {
                        queue(c.shard(), -c.approximateBytes());
                        if (mode == CoalescingMode.BEST_EFFORT && b.work.isEmpty()) {
                            b.lastActivityMs = time.milliseconds();
                            if (lingerMs == 0) {
                                close(b);
                            }
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                // an Error too: a builder left draining would keep its handles pending forever; the loop
                // goes on, discarding the failed builder's queued work and releasing its bytes
                if (e instanceof Error) {
                    LOG.error("shard {}: shared batch {} for [{}, {}) hit an error; failing it", b.key.shard(),
                        b.batchId, b.key.lower(), b.key.upper(), e);
                }
                LOG.warn("shard {}: shared batch {} for [{}, {}) failed; its {} contributors contribute again: {}",
                    b.key.shard(), b.batchId, b.key.lower(), b.key.upper(), b.handles.size(), e.toString());
                synchronized (lock) {
                    if (item instanceof ContributionData c) {
                        queue(c.shard(), -c.approximateBytes());
                    }
                    b.state = SharedBuilder.State.FAILED;
                    b.failure = e.toString();
                    // every participant contributes this range again: barriers wait for them again
                    Map<Integer, Long> tasks = localTasks.getOrDefault(b.key.shard(), Map.of());
                    for (Handle h : b.handles) {
                        tasks.computeIfPresent(h.contribution.partition(), (p, at) -> Math.min(at, b.key.lower()));
                    }
                    open.remove(b.key, b);
                    b.sink.metrics().batchFailed();
                    retireIfDone(b);
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
