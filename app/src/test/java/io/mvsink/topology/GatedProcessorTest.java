package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/**
 * A processor of a topology built before its sink context exists (the stream threads start while
 * the app's start still checks the blob store and the shard's placement) is built only as its task
 * initialises, from the context the start hands over, and fails if the start failed.
 */
class GatedProcessorTest {
    private final List<SinkContext> built = new CopyOnWriteArrayList<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Test
    void shouldBuildTheProcessorOnlyOnceTheStartHandsTheContextOver() throws Exception {
        SinkGate gate = new SinkGate();
        GatedProcessor processor = new GatedProcessor(gate, this::recording);
        assertTrue(built.isEmpty(), "nothing is built before the task initialises");

        CompletableFuture<Void> init = CompletableFuture.runAsync(() -> processor.init(new MockProcessorContext<>()));
        assertThrows(TimeoutException.class, () -> init.get(200, TimeUnit.MILLISECONDS),
            "the task's initialisation waits for the start's checks");
        assertTrue(built.isEmpty());

        SinkContext sink = context();
        gate.pass(sink);
        init.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(sink), built);
        processor.process(new Record<>(new byte[] {1}, new byte[] {2}, 0L));
        processor.close();
        assertEquals(List.of("init", "process", "close"), calls);
    }

    @Test
    void shouldFailTheTaskWithTheStartsFailure() {
        SinkGate gate = new SinkGate();
        GatedProcessor processor = new GatedProcessor(gate, this::recording);
        IllegalStateException refused = new IllegalStateException("another container");
        gate.fail(refused);

        SinkGate.StartAbandonedException e = assertThrows(SinkGate.StartAbandonedException.class,
            () -> processor.init(new MockProcessorContext<>()));
        assertSame(refused, e.getCause());
        assertTrue(e.getMessage().contains("another container"), e.getMessage());
        assertTrue(built.isEmpty(), "no processor of a failed start is built");
        processor.close();
        assertFalse(calls.contains("close"), "a processor that was never built is not closed");
    }

    @Test
    void shouldHandAnOpenGatesContextAtOnce() {
        SinkContext sink = context();
        GatedProcessor processor = new GatedProcessor(SinkGate.open(sink), this::recording);
        processor.init(new MockProcessorContext<>());
        assertEquals(List.of(sink), built);
    }

    private Processor<byte[], byte[], byte[], byte[]> recording(SinkContext sink) {
        built.add(sink);
        return new Processor<>() {
            @Override
            public void init(ProcessorContext<byte[], byte[]> context) {
                calls.add("init");
            }

            @Override
            public void process(Record<byte[], byte[]> record) {
                calls.add("process");
            }

            @Override
            public void close() {
                calls.add("close");
            }
        };
    }

    private static SinkContext context() {
        return new SinkContext(SinkSettings.of("s", "c-value"), new MockTime(), new ShardMetrics("s"), null,
            new InMemorySchemaRegistry());
    }
}
