package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Test batches: {@code batch(lower, upper, partitions...)} holds one contribution per partition. */
public final class Batches {
    private Batches() {
    }

    public static Batch batch(long lower, long upper, int... partitions) {
        List<Contribution> contributions = new ArrayList<>();
        for (int p : partitions) {
            contributions.add(new Contribution(p, lower, upper, 1L));
        }
        String id = UUID.randomUUID().toString();
        return Batch.newBuilder().setBatchId(id).setShard("s").setLower(lower).setUpper(upper)
            .setSchemaIds(List.of(1)).setContributions(contributions)
            .setParts(List.of(new Part("s/" + id, 1, 10L, 1L, null))).setUpdates(1L).setBytes(10L).setClosedAtMs(0L)
            .build();
    }
}
