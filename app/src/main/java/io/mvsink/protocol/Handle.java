package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;

/**
 * A task's stake in one shared batch: its contribution is in the batch. The task polls it from
 * its own stream thread; exactly one participant of a finished batch is ever told
 * {@link Outcome.Report}. All state lives in the registry, under its lock.
 */
public final class Handle {
    private final SharedBatchRegistry registry;
    final SharedBuilder builder;
    /** The contribution's first (or only) chunk: its partition, range and close time. */
    final ContributionData contribution;
    /** Updates handed over so far, over every chunk. */
    long updates;
    /** More chunks of the contribution are to come. */
    boolean incomplete;
    private boolean resolved;

    Handle(SharedBatchRegistry registry, SharedBuilder builder, ContributionData contribution) {
        this.registry = registry;
        this.builder = builder;
        this.contribution = contribution;
    }

    /** Never blocks. Report and Covered and Failed are answered once; afterwards the handle is resolved. */
    public Outcome poll() {
        return registry.poll(this);
    }

    /**
     * The task no longer waits for this batch (it is closing, or contributes again). If every
     * participant abandons a finished batch that nobody claimed, the batch is dropped: its
     * contributors contribute again when they are re-initialised.
     */
    public void abandon() {
        registry.abandon(this);
    }

    public long lower() {
        return contribution.lower();
    }

    public long upper() {
        return contribution.upper();
    }

    public String batchId() {
        return builder.batchId;
    }

    /** Answered or abandoned (under the registry's lock). */
    boolean resolved() {
        return resolved;
    }

    /** Under the registry's lock: the handle was answered (or abandoned). */
    void resolve() {
        resolved = true;
    }
}
