package io.mvsink.metrics;

import java.util.function.LongSupplier;

/**
 * Where a shard's MBean reads the batch coalescer's gauges: the shard's own builders, and the
 * JVM-wide registry's (shared by every shard of the JVM), each under a name that says which.
 */
public record BuilderGauges(LongSupplier shardQueuedBytes, LongSupplier shardLiveBatches,
                            LongSupplier jvmQueuedBytes, LongSupplier jvmLiveBatches) {
    /** Constant gauges, for tests. */
    public static BuilderGauges fixed(long queuedBytes, long liveBatches) {
        return new BuilderGauges(() -> queuedBytes, () -> liveBatches, () -> queuedBytes, () -> liveBatches);
    }
}
