package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.produce.CorrectionSink;
import io.mvsink.produce.WideWorkload;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class PreloadTest {
    private static final long NOW = 1_700_000_123_456L;

    /** Records what the preload sends: the frontier (last progress), updates below it, and the sums. */
    private static final class Recorder implements CorrectionSink {
        long frontier = Long.MIN_VALUE;
        long updates;
        long below;
        final Map<GenericRecord, Long> sums = new HashMap<>();

        @Override
        public void update(String rowKey, GenericRecord row, long time, long diff) {
            updates++;
            below += time < frontier ? 1 : 0;
            sums.merge(row, diff, Long::sum);
        }

        @Override
        public void progress(long upper) {
            assertTrue(upper > frontier, "progress only advances");
            frontier = upper;
        }

        @Override
        public void flush() {
        }
    }

    @Test
    void shouldSendTheLateUpdatesOfTheSourceBelowTheFrontierAndCountThem() {
        PreloadPlan plan = PreloadPlan.of(100_000, 500, 1000, 1000, NOW, 11);
        WideWorkload source = new WideWorkload(11, 5_000, 0.3, 0.005);
        Recorder sink = new Recorder();
        Preload.Sent sent = Preload.send(sink, source, plan);
        assertEquals(100_000, sent.updates());
        assertEquals(sink.updates, sent.updates());
        assertEquals(sink.below, sent.late(), "every update sent below the frontier is counted late, and only those");
        assertEquals(0.005, sent.late() / 100_000.0, 0.001);
        sink.sums.values().removeIf(count -> count == 0);
        assertEquals(source.model(), sink.sums, "late updates are in the model: the sink advances, never drops them");
    }

    @Test
    void shouldSendNoUpdateLateForTheNarrowWorkload() {
        PreloadPlan plan = PreloadPlan.of(5_000, 500, 1000, 1000, NOW, 11);
        Recorder sink = new Recorder();
        assertEquals(new Preload.Sent(5_000, 0), Preload.send(sink, CatchUpWorkload.NARROW.source(), plan));
        assertEquals(0, sink.below);
    }
}
