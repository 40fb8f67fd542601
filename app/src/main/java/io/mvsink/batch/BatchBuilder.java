package io.mvsink.batch;

import io.mvsink.avro.Batch;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Turns contributions into batches whose parts are durable in blob storage, off the stream
 * threads. {@link #offer} never blocks: when the builder is at capacity it refuses, and the
 * task keeps the contribution (it is still in its correction buffer) and offers it again later.
 * That is the back-pressure: memory stays bounded by the queue, not by the input.
 */
public interface BatchBuilder extends AutoCloseable {

    /**
     * Offers one contribution. The future completes with the finished batch once all its parts
     * are durable, or exceptionally if a part could not be written (contribute again).
     */
    Optional<CompletableFuture<Batch>> offer(ContributionData contribution);

    /** Stops accepting work; waits a bounded time for running builds and says what it abandoned. */
    @Override
    void close();
}
