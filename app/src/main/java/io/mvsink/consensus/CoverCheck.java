package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.time.TimeRange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Checks appends from the outside. A seal's batches must tile {@code [lower, upper)} exactly
 * once for every partition of the shard; a compaction's merged batch must tile its own range
 * exactly once for every partition. Readers and tests use it to prove that no interval was
 * sealed without some partition's contribution.
 */
public final class CoverCheck {
    private CoverCheck() {
    }

    /** What is wrong with the append's cover; empty when it is exact. */
    public static List<String> problems(StateDiff diff) {
        if (ShardState.isCompaction(diff)) {
            List<String> problems = new ArrayList<>();
            if (diff.getRemovedBatchIds().isEmpty() || diff.getAdded().isEmpty()) {
                problems.add("a compaction must replace some batches by others");
            }
            for (Batch batch : diff.getAdded()) {
                TimeRange range = range(List.of(batch));
                problems.addAll(problems(diff.getPartitionCount(), range.lower(), range.upper(), List.of(batch)));
            }
            return problems;
        }
        return problems(diff.getPartitionCount(), diff.getLower(), diff.getUpper(), diff.getAdded());
    }

    /** What keeps {@code batches} from tiling {@code [lower, upper)} exactly once per partition; empty if nothing. */
    public static List<String> problems(int partitionCount, long lower, long upper, Collection<Batch> batches) {
        List<String> problems = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            List<Contribution> mine = new ArrayList<>();
            for (Batch batch : batches) {
                for (Contribution c : batch.getContributions()) {
                    if (c.getPartition() == p) {
                        mine.add(c);
                    }
                }
            }
            mine.sort(Comparator.comparingLong(Contribution::getLower));
            long at = lower;
            for (Contribution c : mine) {
                if (c.getLower() != at || c.getUpper() <= c.getLower()) {
                    problems.add("partition " + p + ": contribution [" + c.getLower() + ", " + c.getUpper()
                        + ") does not continue at " + at);
                }
                at = Math.max(at, c.getUpper());
            }
            if (at != upper) {
                problems.add("partition " + p + " covered up to " + at + ", not " + upper);
            }
        }
        for (Batch batch : batches) {
            for (Contribution c : batch.getContributions()) {
                if (c.getPartition() < 0 || c.getPartition() >= partitionCount) {
                    problems.add("batch " + batch.getBatchId() + " holds unknown partition " + c.getPartition());
                }
            }
        }
        return problems;
    }

    /** {@code [lowest lower, highest upper)} of the batches' contributions (empty if they hold none). */
    public static TimeRange range(Collection<Batch> batches) {
        long lower = Long.MAX_VALUE;
        long upper = Long.MIN_VALUE;
        for (Batch batch : batches) {
            for (Contribution c : batch.getContributions()) {
                lower = Math.min(lower, c.getLower());
                upper = Math.max(upper, c.getUpper());
            }
        }
        return new TimeRange(lower, upper);
    }
}
