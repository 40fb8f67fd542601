package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.blob.BlobStore;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.time.TimeRange;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM-wide batch coalescer: one per process, injected into the processors. Tasks
 * contribute; contributions of one {@code (shard, lower, upper)} feed one {@link SharedBuilder}
 * according to the {@link CoalescingMode}; builders run on a named, bounded pool.
 *
 * <p><b>Ownership.</b> Every decision about a builder — who joins, when it closes, whether it
 * finished or failed, who owns it, when it is retired — is taken under one lock, {@link #lock}.
 * A finished batch is owned by the first of its participants that polls it: that participant is
 * told {@link Outcome.Report} and reports it from its own stream thread in its own transaction;
 * every other participant is told {@link Outcome.Covered}. A failed batch tells every
 * participant {@link Outcome.Failed}. A builder leaves the coalescer only when every handle is
 * resolved (answered or abandoned), so nothing can drop a batch a live participant waits for;
 * {@link #tick()} and the gauges only read, or close barriers that timed out (closing never
 * changes ownership). If every participant abandons a finished batch, nobody reports it and its
 * contributors contribute again when they are re-initialised (the batch's blobs are garbage).
 *
 * <p><b>One owner per piece of state.</b> Each shard's state is its {@link LocalShard}'s; each
 * participant's lives in its builder, and a task holds only a ticket ({@link Handle}) that it
 * hands back here; a builder drains its own work on the pool. This class only routes a call to
 * the shard it concerns, under the lock, and keeps what is JVM-wide ({@link Totals}).
 *
 * <p><b>Never blocking a stream thread.</b> {@link #contribute} and {@link #poll} take the
 * lock for a few map operations only; encoding and blob I/O happen on the pool. Queued
 * contribution bytes are bounded: over the bound, {@code contribute} refuses and the task keeps
 * the contribution in its buffer and offers it again later (back-pressure, not memory).
 */
public final class BatchCoalescer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchCoalescer.class);

    private final Workshop shop;
    private final ThreadPoolExecutor pool;
    private final Object lock;
    private final Totals totals;
    private final Map<String, LocalShard> shards = new HashMap<>();

    /** A coalescer that runs as {@code settings} say, writing parts with {@code encoder}. */
    public BatchCoalescer(CoalescerSettings settings, BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder,
                          Time time) {
        this(settings, blobs, schemas, encoder, time, Ownership.FIRST_POLLER);
    }

    /** With another ownership rule: only for a test that breaks the rule on purpose and sees the detector fire. */
    BatchCoalescer(CoalescerSettings settings, BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder,
                   Time time, Ownership ownership) {
        int threads = settings.threads();
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
            r -> {
                Thread t = new Thread(r, "mvsink-builder-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        this.lock = new Object();
        this.totals = new Totals(settings.maxQueuedBytes());
        this.shop = new Workshop(lock, pool, settings, time, ownership, totals, blobs, schemas, encoder,
            new LaunchLog());
    }

    public CoalescingMode mode() {
        return shop.mode();
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
            shards.put(sink.shard(), new LocalShard(sink, minter, shop));
        }
    }

    /** The shard's app closed: another app of the shard may run in this JVM from now on. */
    public void removeShard(String shard) {
        synchronized (lock) {
            shards.remove(shard);
        }
    }

    /** A task of the shard that contributes nothing yet now runs in this JVM (barriers wait for it). */
    public void register(String shard, int partition) {
        register(shard, partition, BufferedBytes.NONE, Long.MIN_VALUE);
    }

    /**
     * A task of the shard now runs in this JVM and contributes next from {@code lower} (barriers
     * and the minter wait for it); {@code bytes}: what its buffer holds per range. Its position is
     * the one record of its contribution progress.
     */
    Participants.Position register(String shard, int partition, BufferedBytes bytes, long lower) {
        synchronized (lock) {
            return shard(shard).register(partition, bytes, lower);
        }
    }

    /**
     * The range a task contributes next from its lower: the shard's minted range there (minting the
     * next one when it is due), or, for a shard without a minter, everything up to the task's
     * closed frontier. Empty when there is nothing to contribute yet.
     */
    Optional<TimeRange> nextRange(String shard, RangeMinter.Ask ask) {
        synchronized (lock) {
            return shard(shard).nextRange(ask);
        }
    }

    /**
     * Holds the shard's minting (no new range) while {@code hold}: its app has not run yet, so the
     * set of local tasks is still forming. Ranges already minted are still handed out.
     */
    public void holdMinting(String shard, boolean hold) {
        synchronized (lock) {
            shard(shard).holdMinting(hold);
        }
    }

    /** False while the queued contribution bytes are at their bound: an offer now would be refused. */
    boolean accepting() {
        synchronized (lock) {
            return totals.accepting();
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
    void deregister(String shard, int partition) {
        synchronized (lock) {
            LocalShard local = shards.get(shard);
            if (local != null) { // else the shard's app closed first
                local.deregister(partition);
            }
        }
    }

    /**
     * The task will contribute again from {@code lower} (its batch failed, or waited too long):
     * barriers of ranges from there on wait for it again.
     */
    void rewind(String shard, int partition, long lower) {
        synchronized (lock) {
            shard(shard).rewind(partition, lower);
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
        synchronized (lock) {
            return shard(c.shard()).contribute(c, copy);
        }
    }

    /**
     * Closes barriers whose timeout passed and best-effort builders that lingered idle long
     * enough. Called from task punctuations; reads the injected clock.
     */
    public void tick() {
        synchronized (lock) {
            long now = shop.time().milliseconds();
            for (LocalShard local : shards.values()) {
                local.tick(now);
            }
        }
    }

    /** The answer to the task that holds {@code h}. Never blocks. Report and Covered and Failed are answered once. */
    public Outcome poll(Handle h) {
        synchronized (lock) {
            return shard(h.shard()).poll(h);
        }
    }

    /**
     * The task no longer waits for the batch of {@code h} (it is closing, or contributes again). If
     * every participant abandons a finished batch that nobody claimed, the batch is dropped: its
     * contributors contribute again when they are re-initialised.
     */
    public void abandon(Handle h) {
        synchronized (lock) {
            LocalShard local = shards.get(h.shard());
            if (local != null) { // else the shard's app closed first
                local.abandon(h);
            }
        }
    }

    /**
     * Hands over the next chunk of a contribution whose first chunk {@code h} answers. Never
     * blocks; false when the queued bytes are at their bound (keep the chunk and hand it over
     * again later). A chunk for a batch that failed meanwhile is dropped (its task is told).
     */
    boolean more(Handle h, ContributionData chunk) {
        synchronized (lock) {
            return shard(h.shard()).more(h, chunk);
        }
    }

    /**
     * How many bytes of a range a task hands over at a time: a part of the queue's bound, so that
     * a large range never sits in the heap whole and several tasks' chunks fit the queue at once.
     */
    long chunkBytes() {
        return totals.chunkBytes();
    }

    /** Builders not yet retired (open, building, or finished and waiting for their owner), of every shard. */
    public int liveBatches() {
        synchronized (lock) {
            return totals.live();
        }
    }

    /**
     * The range {@code partition} should contribute again because another participant of a batch
     * holding its contribution left the JVM before the batch was known to be sealed
     * ({@link #deregister}); empty if none. Taking it clears it.
     */
    Optional<TimeRange> takeRestart(String shard, int partition) {
        synchronized (lock) {
            LocalShard local = shards.get(shard);
            return local == null ? Optional.empty() : local.takeRestart(partition);
        }
    }

    /** Contribution bytes waiting for a builder thread, of every shard of this JVM. */
    public long queuedBytes() {
        synchronized (lock) {
            return totals.queued();
        }
    }

    /** Contribution bytes of {@code shard} waiting for a builder thread. */
    public long queuedBytes(String shard) {
        synchronized (lock) {
            return totals.queued(shard);
        }
    }

    /** Builders of {@code shard} not yet retired. */
    public int liveBatches(String shard) {
        synchronized (lock) {
            return totals.live(shard);
        }
    }

    /**
     * Finished batches that nobody reported although participants were told another one does
     * ({@link Outcome.Covered}): must stay 0; a broken ownership rule makes it count.
     */
    public long orphanedBatches() {
        synchronized (lock) {
            return totals.orphans();
        }
    }

    private LocalShard shard(String shard) {
        LocalShard local = shards.get(shard);
        if (local == null) {
            throw new IllegalStateException("shard " + shard + " was not added to the batch coalescer");
        }
        return local;
    }

    /** Stops the pool; waits a bounded time for running builds and says what it abandoned. */
    @Override
    public void close() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                int abandoned = pool.shutdownNow().size();
                LOG.warn("batch coalescer closed with {} builder jobs abandoned; their tasks contribute again", abandoned);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            if (totals.live() > 0) {
                LOG.info("batch coalescer closed with {} unreported batches; their tasks contribute again", totals.live());
            }
        }
    }
}
