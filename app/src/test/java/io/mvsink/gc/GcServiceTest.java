package io.mvsink.gc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class GcServiceTest {
    private static final long GRACE = 60_000;

    private final MockTime time = new MockTime(0, 1_700_000_000_000L, 0);
    private final InMemoryBlobStore store = new InMemoryBlobStore(BlobGcTest.clockOf(time));
    private final ShardMetrics metrics = new ShardMetrics("orders");
    private final BlobGc gc = new BlobGc(store, "orders/", BlobGcTest.OWNER, GRACE, time);

    @Test
    void shouldCountAFailedRunAndNeverThrow() {
        GcService service = new GcService("orders", gc, () -> {
            throw new IllegalStateException("consensus topic unreachable");
        }, 1_000, metrics);

        assertNull(service.runOnce());
        assertEquals(1, metrics.gcFailures());
        assertEquals(0, metrics.gcRuns());
    }

    @Test
    void shouldCountRunsAndDeletedBlobs() {
        store.putIfAbsent("orders/leaked-0000.avro", new byte[3], BlobGcTest.OWNER.value());
        store.putIfAbsent("orders/leaked-0001.avro", new byte[3], BlobGcTest.OWNER.value());
        time.sleep(GRACE + 1);
        GcService service = new GcService("orders", gc, () -> BlobGcTest.state(List.of(), Map.of()), 1_000, metrics);

        service.runOnce();
        service.runOnce();

        assertEquals(2, metrics.gcRuns());
        assertEquals(2, metrics.gcDeletedBlobs());
        assertEquals(0, metrics.gcFailures());
    }

    @Test
    void shouldRunAgainAfterAFailureUntilClosed() {
        AtomicInteger reads = new AtomicInteger();
        Supplier<ShardState> flaky = () -> {
            if (reads.incrementAndGet() == 1) {
                throw new IllegalStateException("first read fails");
            }
            return BlobGcTest.state(List.of(), Map.of());
        };
        GcService service = new GcService("orders", gc, flaky, 20, metrics);
        service.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics.gcRuns() >= 2);
        service.close(Duration.ofSeconds(5));
        int readsAtClose = reads.get();

        assertEquals(1, metrics.gcFailures());
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> reads.get() == readsAtClose);
    }

    @Test
    void shouldNeverRunWithAnIntervalOfZero() {
        AtomicInteger reads = new AtomicInteger();
        GcService service = new GcService("orders", gc, () -> {
            reads.incrementAndGet();
            return BlobGcTest.state(List.of(), Map.of());
        }, 0, metrics);
        service.start();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> reads.get() == 0);
        service.close();
        assertFalse(reads.get() > 0);
    }
}
