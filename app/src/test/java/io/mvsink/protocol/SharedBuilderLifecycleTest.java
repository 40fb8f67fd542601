package io.mvsink.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class SharedBuilderLifecycleTest {
    private final SharedBuilder builder = new SharedBuilder(new SharedBuilder.Key("s", 0, 1000),
        new ShardSink("s", "s/", "c/s", new ShardMetrics("s")),
        new Workshop(new Object(), Runnable::run, TestCoalescer.settings(CoalescingMode.BARRIER), new MockTime(),
            Ownership.FIRST_POLLER, new Totals(1 << 20), new InMemoryBlobStore(), new InMemorySchemaRegistry(), new PartEncoder("null", 1),
            new LaunchLog()),
        new SharedBuilder.Owner() {
            @Override
            public void stoppedJoining(SharedBuilder b) {
            }

            @Override
            public void settled(SharedBuilder b) {
            }
        });

    @Test
    void shouldAllowOnlyTheDocumentedTransitions() {
        var legal = java.util.Map.of(
            SharedBuilder.State.OPEN, EnumSet.of(SharedBuilder.State.CLOSED, SharedBuilder.State.FAILED),
            SharedBuilder.State.CLOSED, EnumSet.of(SharedBuilder.State.FINISHED, SharedBuilder.State.FAILED),
            SharedBuilder.State.FINISHED, EnumSet.of(SharedBuilder.State.DELIVERED, SharedBuilder.State.DROPPED));
        for (SharedBuilder.State from : SharedBuilder.State.values()) {
            for (SharedBuilder.State to : SharedBuilder.State.values()) {
                Set<SharedBuilder.State> allowed = legal.getOrDefault(from, EnumSet.noneOf(SharedBuilder.State.class));
                assertEquals(allowed.contains(to), from.canBecome(to), from + " -> " + to);
            }
        }
    }

    @Test
    void shouldRefuseToFinishABatchThatIsStillOpen() {
        assertThrows(IllegalStateException.class, () -> builder.finished(Batch.newBuilder().setBatchId("b")
            .setShard("s").setLower(0).setUpper(1000).setSchemaIds(List.of()).setContributions(List.of())
            .setParts(List.of()).setUpdates(0).setBytes(0).setClosedAtMs(0).build()));
        assertEquals(SharedBuilder.State.OPEN, builder.state());
    }

    @Test
    void shouldCloseOnceAndQueueTheFinalizeMarker() {
        assertTrue(builder.close());
        assertFalse(builder.close(), "closing a closed builder changes nothing");
        assertTrue(builder.startDraining());
        assertEquals(Work.FINISH, builder.nextWork());
        assertEquals(SharedBuilder.Retired.NOT_YET, builder.retire(), "not settled while its parts are written");
    }
}
