package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.compact.CompactionPolicy;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The appender's merges: at most one in flight, picked by {@link CompactionPolicy}, run on the
 * upkeep executor (never the stream thread), and handed back for the appender to commit on its
 * own thread. A failed merge is retried after a pause; its parts are garbage.
 */
final class Compactions {
    private static final Logger LOG = LoggerFactory.getLogger(Compactions.class);
    static final long RETRY_PAUSE_MS = 10_000;

    private final String shard;
    private final SinkContext.Upkeep upkeep;
    private final ShardMetrics metrics;
    private CompletableFuture<Batch> running;
    private List<String> replacing;
    private long retryAt;

    /** A finished merge: the batches it replaces and the merged batch. */
    record Merged(List<String> replaced, Batch batch) {
    }

    Compactions(String shard, SinkContext.Upkeep upkeep, ShardMetrics metrics) {
        this.shard = shard;
        this.upkeep = upkeep;
        this.metrics = metrics;
    }

    /** Starts the merge the policy picks, unless one is running or compaction is off or pausing. */
    void maybeStart(ShardState state, long now) {
        if (!upkeep.compacts() || running != null || now < retryAt || state.seqno() == 0) {
            return;
        }
        Optional<List<Batch>> inputs = CompactionPolicy.pick(state.batches(), upkeep.maxBatchBytes(),
            upkeep.inlineMergeBytes());
        if (inputs.isEmpty()) {
            return;
        }
        List<Batch> batches = inputs.get();
        long since = state.since();
        int partitions = state.partitionCount();
        replacing = batches.stream().map(Batch::getBatchId).toList();
        try {
            running = CompletableFuture.supplyAsync(() -> upkeep.merge().merge(shard, partitions, batches, since),
                upkeep.executor());
        } catch (RejectedExecutionException closing) {
            running = null;
        }
    }

    /** The finished merge, once; empty while it runs, if none runs, or if it failed. */
    Optional<Merged> poll(long now) {
        if (running == null || !running.isDone()) {
            return Optional.empty();
        }
        CompletableFuture<Batch> done = running;
        running = null;
        try {
            return Optional.of(new Merged(replacing, done.join()));
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            metrics.compactionFailed();
            retryAt = now + RETRY_PAUSE_MS;
            LOG.warn("merging {} batches failed (retrying in {} ms): {}", replacing.size(),
                RETRY_PAUSE_MS, cause.toString());
            return Optional.empty();
        }
    }

    /** Forgets the running merge (the task is closing): its parts, if it writes any, are garbage. */
    void abandon() {
        running = null;
    }
}
