package io.mvsink.read;

import static org.awaitility.Awaitility.await;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.batch.ContributionData;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.batch.Update;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.protocol.Handle;
import io.mvsink.protocol.Outcome;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.time.TimeRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A shard "orders" of two partitions for the read room's tests: in-memory blobs and registry
 * (subject {@code orders-value}), batches built by a real builder, and a state the tests append to.
 */
final class ShardFixture implements AutoCloseable {
    final InMemoryBlobStore blobs = new InMemoryBlobStore();
    final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    final int schemaId = registry.register("orders-value", Workload.ROW_SCHEMA);
    final ShardState state = new ShardState("orders");
    private final BatchCoalescer builder = TestCoalescer.of(CoalescingMode.NONE).blobs(blobs).schemas(registry)
        .encoder(new PartEncoder("deflate", 1024)).build();

    /** Parts are cut at 1024 encoded bytes; every batch's parts are blobs. */
    ShardFixture() {
        this(0);
    }

    /** As {@link #ShardFixture()}, and a batch of at most {@code inlineMaxBytes} is stored inline. */
    ShardFixture(long inlineMaxBytes) {
        builder.addShard(new ShardSink("orders", "orders/", "test-consensus/orders", new ShardMetrics("orders"),
            inlineMaxBytes));
    }

    /** One partition's batch of {@code updates} over {@code [lower, upper)}, its parts written. */
    Batch build(int partition, long lower, long upper, List<Update> updates) {
        Handle handle = builder.contribute(new ContributionData("orders", partition, new TimeRange(lower, upper), updates, 0L))
            .orElseThrow();
        Outcome[] outcome = new Outcome[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> !((outcome[0] = builder.poll(handle)) instanceof Outcome.Pending));
        return ((Outcome.Report) outcome[0]).batch();
    }

    /** The seal at {@code seqno} of {@code added} over {@code [lower, upper)}, applied to the state. */
    StateDiff append(long seqno, long lower, long upper, Batch... added) {
        StateDiff diff = seal(seqno, lower, upper, added);
        state.apply(diff);
        return diff;
    }

    /** The seal at {@code seqno} of {@code added} over {@code [lower, upper)}, not applied. */
    static StateDiff seal(long seqno, long lower, long upper, Batch... added) {
        return StateDiff.newBuilder().setShard("orders").setSeqno(seqno).setLower(lower).setUpper(upper)
            .setPartitionCount(2).setAdded(List.of(added)).setAppendedAtMs(0L).build();
    }

    /** The compaction at {@code seqno} that replaces {@code batches} by {@link #merged} of them. */
    StateDiff compaction(long seqno, Batch... batches) {
        List<String> removed = new ArrayList<>();
        for (Batch b : batches) {
            removed.add(b.getBatchId());
        }
        return StateDiff.newBuilder().setShard("orders").setSeqno(seqno).setLower(state.upper())
            .setUpper(state.upper()).setPartitionCount(2).setAppendedAtMs(0L).setRemovedBatchIds(removed)
            .setAdded(List.of(merged(batches))).build();
    }

    /** One batch holding the contributions and parts of {@code batches}: what a merge commits, unconsolidated. */
    static Batch merged(Batch... batches) {
        List<Contribution> contributions = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        long lower = Long.MAX_VALUE;
        long upper = Long.MIN_VALUE;
        for (Batch b : batches) {
            contributions.addAll(b.getContributions());
            parts.addAll(b.getParts());
            lower = Math.min(lower, b.getLower());
            upper = Math.max(upper, b.getUpper());
        }
        return Batch.newBuilder(batches[0]).setBatchId("merged-" + batches[0].getBatchId()).setLower(lower)
            .setUpper(upper).setContributions(contributions).setParts(parts).build();
    }

    @Override
    public void close() {
        builder.close();
    }
}
