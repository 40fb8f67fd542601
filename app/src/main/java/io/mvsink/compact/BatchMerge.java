package io.mvsink.compact;

import io.mvsink.avro.Batch;
import java.util.List;

/** The compactor's I/O: merges sealed batches into one new batch, off the stream threads. */
@FunctionalInterface
public interface BatchMerge {

    /**
     * Reads the parts of {@code batches} (together an exact cover of {@code [lower, upper)} for each of
     * the shard's {@code partitionCount} partitions), reads every row into the subject's latest schema,
     * advances every time below {@code since} to {@code since}, consolidates equal {@code (row, time)}
     * pairs (dropping those that sum to 0), writes the result as new write-once parts and returns the
     * merged batch: a fresh batch id, one contribution per partition over {@code [lower, upper)}, its
     * {@code closedAtMs} the wall clock before its first write. No state references it yet.
     *
     * @throws RuntimeException on any failure; parts it wrote before are garbage
     */
    Batch merge(String shard, int partitionCount, List<Batch> batches, long since);
}
