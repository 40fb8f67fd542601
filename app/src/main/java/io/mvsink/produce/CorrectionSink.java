package io.mvsink.produce;

import org.apache.avro.generic.GenericRecord;

/** Where a workload sends its corrections: {@link CorrectionProducer}, or a fake in tests. */
public interface CorrectionSink {

    void update(String rowKey, GenericRecord row, long time, long diff);

    /** Promises every partition that no update with {@code time < upper} follows. */
    void progress(long upper);

    void flush();
}
