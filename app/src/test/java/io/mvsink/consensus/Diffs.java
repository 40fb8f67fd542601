package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import java.util.ArrayList;
import java.util.List;

/** Test state diffs and batches; a contribution is written {@code c(partition, lower, upper)}. */
final class Diffs {
    private Diffs() {
    }

    static Contribution c(int partition, long lower, long upper) {
        return new Contribution(partition, lower, upper, 1L);
    }

    static Batch batch(String id, Contribution... contributions) {
        long lower = Long.MAX_VALUE;
        long upper = Long.MIN_VALUE;
        for (Contribution c : contributions) {
            lower = Math.min(lower, c.getLower());
            upper = Math.max(upper, c.getUpper());
        }
        return Batch.newBuilder().setBatchId(id).setShard("s").setLower(lower).setUpper(upper)
            .setSchemaIds(List.of(1)).setContributions(List.of(contributions)).setParts(List.of())
            .setUpdates(contributions.length).setBytes(0L).build();
    }

    static StateDiff diff(long seqno, long lower, long upper, int partitions, Batch... added) {
        return StateDiff.newBuilder().setShard("s").setSeqno(seqno).setLower(lower).setUpper(upper)
            .setPartitionCount(partitions).setAdded(new ArrayList<>(List.of(added))).setAppendedAtMs(0L).build();
    }
}
