package io.mvsink.codec;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.RetiredBlob;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.avro.TaskProgress;
import java.nio.ByteBuffer;
import java.util.List;

/** Fixed values of every stored type, with non-default fields and edge values, for round trips and fixtures. */
final class StoredValues {
    static final String LOCATION = "devstoreaccount1/orders";

    private StoredValues() {
    }

    static Batch batch() {
        return Batch.newBuilder()
            .setBatchId("6f1c1a4e-0000-4000-8000-000000000001")
            .setShard("orders.v1")
            .setLower(1_000L)
            .setUpper(3_000L)
            .setSchemaIds(List.of(7, 8))
            .setContributions(List.of(new Contribution(0, 1_000L, 3_000L, 2L), new Contribution(3, 1_000L, 2_000L, 0L)))
            .setParts(List.of(new Part("orders.v1/p-0000.avro", 7, 512L, 2L, null), new Part("orders.v1/p-0001.avro", 8, 64L, 1L, null),
                new Part("", 8, 5L, 1L, ByteBuffer.wrap(new byte[] {2, 'a', 6, 3, 0}))))
            .setUpdates(4L)
            .setBytes(581L)
            .setClosedAtMs(1_700_000_000_123L)
            .build();
    }

    static BatchReport report() {
        return new BatchReport(batch(), "0_3", 1_700_000_000_100L);
    }

    static StateDiff stateDiff() {
        return StateDiff.newBuilder()
            .setShard("orders.v1")
            .setSeqno(42L)
            .setLower(1_000L)
            .setUpper(3_000L)
            .setPartitionCount(4)
            .setAdded(List.of(batch()))
            .setRemovedBatchIds(List.of("old-batch-1"))
            .setGarbageBlobs(List.of("orders.v1/garbage-0000.avro"))
            .setAppendedAtMs(1_700_000_000_456L)
            .setSince(2_000L)
            .setLocation(LOCATION)
            .build();
    }

    static AppenderState appenderState() {
        return new AppenderState("orders.v1", 3_000L, 42L, 4, List.of("orders.v1/garbage-0000.avro"), 2_000L, 40L,
            LOCATION);
    }

    static StateRollup stateRollup() {
        return new StateRollup("orders.v1", 42L, 3_000L, 2_000L, 4, List.of(batch()),
            List.of(new RetiredBlob("orders.v1/old-0000.avro", 1_700_000_000_789L)), 1_700_000_001_000L, LOCATION);
    }

    static TaskProgress taskProgress() {
        return new TaskProgress(Long.MAX_VALUE, -1L, 5L);
    }
}
