package io.mvsink.topology;

import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A processor built from the sink context when its task initialises ({@link SinkGate}): Kafka
 * Streams builds processors from their suppliers as it adds them to a topology and again for each
 * task, before the context may exist; the processor itself exists only from {@link #init} on.
 */
final class GatedProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private final SinkGate gate;
    private final Function<SinkContext, Processor<byte[], byte[], byte[], byte[]>> build;
    private Processor<byte[], byte[], byte[], byte[]> processor;

    GatedProcessor(SinkGate gate, Function<SinkContext, Processor<byte[], byte[], byte[], byte[]>> build) {
        this.gate = gate;
        this.build = build;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        processor = build.apply(gate.await());
        processor.init(context);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        processor.process(record);
    }

    @Override
    public void close() {
        if (processor != null) {
            processor.close();
        }
    }
}
