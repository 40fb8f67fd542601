package io.mvsink.gc;

import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.metrics.ShardMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a shard's {@link BlobGc} by itself, in an app: one daemon thread reads the shard's state
 * from the consensus topic and collects against it every {@code gc.interval.ms} plus up to 10%
 * random jitter (so the instances of one app spread out), the first run one interval after
 * {@link #start()}. Every instance of an app runs it; concurrent runs are safe (see
 * {@link BlobGc}). A failed run is logged and counted ({@code GcFailures}) and the next one comes
 * at the next interval: GC never stops the app. Lifecycle: NEW → RUNNING → CLOSED, or NEW → OFF
 * when the interval is 0.
 */
public final class GcService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GcService.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    enum State { NEW, RUNNING, OFF, CLOSED }

    private final String shard;
    private final BlobGc gc;
    private final Supplier<ShardState> states;
    private final long intervalMs;
    private final ShardMetrics metrics;
    private ScheduledExecutorService scheduler;
    private volatile State state = State.NEW;

    /**
     * @param states reads the shard's current state (called on the GC thread, after the clock is taken)
     * @param intervalMs time between runs; 0 means never
     */
    GcService(String shard, BlobGc gc, Supplier<ShardState> states, long intervalMs, ShardMetrics metrics) {
        this.shard = shard;
        this.gc = gc;
        this.states = states;
        this.intervalMs = intervalMs;
        this.metrics = metrics;
    }

    /** The GC of {@code config}'s shard, of {@code owner}'s blobs, started (off when {@code gc.interval.ms} is 0). */
    public static GcService start(MvsinkConfig config, BlobOwner owner, BlobStore blobs, ShardMetrics metrics,
                                  Time time) {
        BlobGc gc = new BlobGc(blobs, config.blobPrefix(), owner, config.getLong(MvsinkConfig.GC_GRACE_MS), time);
        Map<String, Object> props = config.kafkaClientProps();
        String topic = config.consensusTopic();
        String shard = config.shard();
        GcService service = new GcService(shard, gc, () -> ConsensusReader.read(props, topic, shard, READ_TIMEOUT),
            config.getLong(MvsinkConfig.GC_INTERVAL_MS), metrics);
        service.start();
        return service;
    }

    synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("blob gc of shard " + shard + " is " + state);
        }
        if (intervalMs <= 0) {
            state = State.OFF;
            LOG.info("blob gc off ({} = 0)", MvsinkConfig.GC_INTERVAL_MS);
            return;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(ShardLogContext.wrap(shard, task), "mvsink-gc-" + shard);
            thread.setDaemon(true);
            return thread;
        });
        // closing drops the next scheduled run instead of waiting for it
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduler = executor;
        state = State.RUNNING;
        scheduleNext();
        LOG.info("blob gc of {} every {} ms, grace {} ms", gc.prefix(), intervalMs, gc.graceMs());
    }

    private synchronized void scheduleNext() {
        if (state == State.RUNNING) {
            long jitter = ThreadLocalRandom.current().nextLong(intervalMs / 10 + 1);
            scheduler.schedule(this::runAndReschedule, intervalMs + jitter, TimeUnit.MILLISECONDS);
        }
    }

    private void runAndReschedule() {
        try {
            runOnce();
        } finally {
            scheduleNext();
        }
    }

    /** One run: reads the state, collects, logs one line and counts; never throws. Null if it failed. */
    GcResult runOnce() {
        try {
            GcResult result = gc.run(states, false);
            metrics.gcRan(result.deleted().size());
            LOG.info("blob gc of {}: {}", gc.prefix(), result.summary());
            return result;
        } catch (RuntimeException e) {
            if (state == State.CLOSED) {
                LOG.info("blob gc stopped by close: {}", e.toString());
            } else {
                metrics.gcFailed();
                LOG.warn("blob gc failed, next run in about {} ms: {}", intervalMs, e.toString());
            }
            return null;
        }
    }

    /**
     * Stops the thread, bounded by {@code timeout}: a run in progress has half of it to end, then is
     * interrupted (it stops between two deletions).
     */
    public void close(Duration timeout) {
        ScheduledExecutorService running;
        synchronized (this) {
            running = scheduler;
            state = State.CLOSED;
        }
        if (running == null) {
            return;
        }
        // a run gets half the time to end by itself (an interrupted consensus read leaves its consumer
        // unable to close cleanly), then is interrupted (it stops between two deletions)
        running.shutdown();
        try {
            if (!running.awaitTermination(timeout.toMillis() / 2, TimeUnit.MILLISECONDS)) {
                running.shutdownNow();
                if (!running.awaitTermination(timeout.toMillis() - timeout.toMillis() / 2, TimeUnit.MILLISECONDS)) {
                    LOG.warn("blob gc did not stop within {}; abandoning its run (a daemon thread)", timeout);
                }
            }
        } catch (InterruptedException e) {
            running.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
