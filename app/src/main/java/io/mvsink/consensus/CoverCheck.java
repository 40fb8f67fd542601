package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks one append from the outside: the contributions of the batches it adds must tile
 * {@code [lower, upper)} exactly once for every partition of the shard. Readers and tests use it
 * to prove that no interval was sealed without some partition's contribution.
 */
public final class CoverCheck {
    private CoverCheck() {
    }

    /** What is wrong with the append's cover; empty when it is exact. */
    public static List<String> problems(StateDiff diff) {
        List<String> problems = new ArrayList<>();
        for (int p = 0; p < diff.getPartitionCount(); p++) {
            List<Contribution> mine = new ArrayList<>();
            for (Batch batch : diff.getAdded()) {
                for (Contribution c : batch.getContributions()) {
                    if (c.getPartition() == p) {
                        mine.add(c);
                    }
                }
            }
            mine.sort(Comparator.comparingLong(Contribution::getLower));
            long at = diff.getLower();
            for (Contribution c : mine) {
                if (c.getLower() != at || c.getUpper() <= c.getLower()) {
                    problems.add("partition " + p + ": contribution [" + c.getLower() + ", " + c.getUpper()
                        + ") does not continue at " + at);
                }
                at = Math.max(at, c.getUpper());
            }
            if (at != diff.getUpper()) {
                problems.add("partition " + p + " covered up to " + at + ", not " + diff.getUpper());
            }
        }
        for (Batch batch : diff.getAdded()) {
            for (Contribution c : batch.getContributions()) {
                if (c.getPartition() < 0 || c.getPartition() >= diff.getPartitionCount()) {
                    problems.add("batch " + batch.getBatchId() + " holds unknown partition " + c.getPartition());
                }
            }
        }
        return problems;
    }
}
