package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.consensus.ShardState;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotCommandTest {
    private final ShardState state = new ShardState("orders");

    {
        Batch batch = Batch.newBuilder().setBatchId("b").setShard("orders").setLower(0L).setUpper(2000L)
            .setSchemaIds(List.of()).setContributions(List.of(new Contribution(0, 0L, 2000L, 0L)))
            .setParts(List.of()).setUpdates(0L).setBytes(0L).build();
        state.apply(StateDiff.newBuilder().setShard("orders").setSeqno(1).setLower(0).setUpper(2000)
            .setPartitionCount(1).setSince(500L).setAdded(List.of(batch)).setAppendedAtMs(0L).build());
    }

    @Test
    void shouldReadEverythingSealedByDefault() {
        assertEquals(1999L, SnapshotCommand.asOf(state, null));
    }

    @Test
    void shouldReadAnyTimeFromSinceToBelowTheUpper() {
        assertEquals(500L, SnapshotCommand.asOf(state, 500L));
        assertEquals(1999L, SnapshotCommand.asOf(state, 1999L));
    }

    @Test
    void shouldNameTheSinceWhenAsOfIsBelowIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotCommand.asOf(state, 499L));
        assertTrue(e.getMessage().contains("--as-of 499 is below the since of shard orders, 500"), e.getMessage());
    }

    @Test
    void shouldNameTheUpperWhenAsOfIsNotBelowIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SnapshotCommand.asOf(state, 2000L));
        assertTrue(e.getMessage().contains("upper of shard orders, 2000"), e.getMessage());
    }
}
