package io.mvsink.batch;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobStore;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.SchemaRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code coalescing.mode=none}: every contribution becomes a batch of its own. Builds run on a
 * named, bounded pool; a full queue refuses the offer instead of blocking the stream thread.
 */
public final class SoloBatchBuilder implements BatchBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(SoloBatchBuilder.class);

    private final BlobStore blobs;
    private final SchemaRegistry registry;
    private final PartEncoder encoder;
    private final String keyPrefix;
    private final ShardMetrics metrics;
    private final ThreadPoolExecutor pool;

    public SoloBatchBuilder(BlobStore blobs, SchemaRegistry registry, PartEncoder encoder, String keyPrefix,
                            ShardMetrics metrics, int threads, int queueCapacity) {
        this.blobs = blobs;
        this.registry = registry;
        this.encoder = encoder;
        this.keyPrefix = keyPrefix;
        this.metrics = metrics;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queueCapacity), r -> {
                Thread t = new Thread(r, "mvsink-builder-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.AbortPolicy());
    }

    @Override
    public Optional<CompletableFuture<Batch>> offer(ContributionData contribution) {
        CompletableFuture<Batch> result = new CompletableFuture<>();
        try {
            pool.execute(() -> {
                try {
                    Batch batch = build(contribution);
                    metrics.batchBuilt();
                    result.complete(batch);
                } catch (RuntimeException e) {
                    metrics.batchFailed();
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException full) {
            metrics.builderRefused();
            return Optional.empty();
        }
        return Optional.of(result);
    }

    /** Queue depth of the builder (contributions waiting for a thread). */
    public int queueDepth() {
        return pool.getQueue().size();
    }

    Batch build(ContributionData c) {
        String batchId = UUID.randomUUID().toString();
        Map<Integer, List<Update>> bySchema = new LinkedHashMap<>();
        for (Update u : c.updates()) {
            bySchema.computeIfAbsent(u.schemaId(), id -> new ArrayList<>()).add(u);
        }
        List<Part> parts = new ArrayList<>();
        long bytes = 0;
        for (Map.Entry<Integer, List<Update>> group : bySchema.entrySet()) {
            int schemaId = group.getKey();
            Map<String, String> meta = Map.of(
                PartEncoder.META_SCHEMA_ID, Integer.toString(schemaId),
                PartEncoder.META_SHARD, c.shard(),
                PartEncoder.META_LOWER, Long.toString(c.lower()),
                PartEncoder.META_UPPER, Long.toString(c.upper()),
                PartEncoder.META_BATCH, batchId);
            for (PartEncoder.EncodedPart part : encoder.encode(registry.schemaById(schemaId), meta, group.getValue())) {
                String key = BlobKeys.part(keyPrefix, c.lower(), c.upper(), batchId, parts.size());
                blobs.putIfAbsent(key, part.bytes());
                metrics.partWritten(part.bytes().length);
                parts.add(new Part(key, schemaId, (long) part.bytes().length, part.updates()));
                bytes += part.bytes().length;
            }
        }
        Contribution contribution = new Contribution(c.partition(), c.lower(), c.upper(), (long) c.updates().size());
        return Batch.newBuilder()
            .setBatchId(batchId)
            .setShard(c.shard())
            .setLower(c.lower())
            .setUpper(c.upper())
            .setSchemaIds(new ArrayList<>(bySchema.keySet()))
            .setContributions(List.of(contribution))
            .setParts(parts)
            .setUpdates(c.updates().size())
            .setBytes(bytes)
            .setClosedAtMs(c.closedAtMs())
            .build();
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                int abandoned = pool.shutdownNow().size();
                LOG.warn("builder closed with {} queued contributions abandoned; their tasks contribute again", abandoned);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
