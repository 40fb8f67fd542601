package io.mvsink.protocol;

import io.mvsink.avro.Batch;

/** What a task learns when it polls its handle. */
public sealed interface Outcome {

    /** The batch is not finished yet: ask again later. */
    record Pending() implements Outcome {
    }

    /**
     * You own the finished batch: report it from your stream thread, in your transaction.
     *
     * @param firstWriteAtMs the clock just before its first part write began (0: it has no part);
     *                       the appender judges its age from here when that is before its close
     */
    record Report(Batch batch, long firstWriteAtMs) implements Outcome {
    }

    /** Another participant owns the batch and reports it; your contribution is in it. */
    record Covered(String batchId) implements Outcome {
    }

    /** The batch failed (a blob write failed): contribute again. */
    record Failed(String reason) implements Outcome {
    }

    Pending PENDING = new Pending();
}
