package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;

/**
 * A task's ticket for its seat in one shared batch: its contribution is in the batch. The task
 * hands it back to the coalescer to poll it from its own stream thread, to hand over the next chunk
 * or to abandon it; exactly one participant of a finished batch is ever told {@link Outcome.Report}.
 * The ticket holds no state of its own: its participant's lives in the builder.
 */
public final class Handle {
    final SharedBuilder builder;
    /** The participant's place in the builder. */
    final int seat;
    private final String shard;
    private final long lower;
    private final long upper;

    Handle(SharedBuilder builder, int seat, ContributionData first) {
        this.builder = builder;
        this.seat = seat;
        this.shard = first.shard();
        this.lower = first.lower();
        this.upper = first.upper();
    }

    String shard() {
        return shard;
    }

    public long lower() {
        return lower;
    }

    public long upper() {
        return upper;
    }

    public String batchId() {
        return builder.batchId;
    }
}
