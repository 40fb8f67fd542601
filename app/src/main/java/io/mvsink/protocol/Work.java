package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;

/** One item of a builder's queued work, written by the one builder thread that drains it. */
sealed interface Work {
    /** Write a contribution (or one chunk of it) into the batch's parts. */
    record Add(ContributionData data) implements Work {
    }

    /** After the last contribution: write the open parts and describe the batch. */
    record Finish() implements Work {
    }

    Finish FINISH = new Finish();
}
