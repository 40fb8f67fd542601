package io.mvsink.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Test;

class WorkloadRunnerTest {
    private final MockTime time = new MockTime(0, 1_000_000, 0);
    private final List<Long> updateTimes = new ArrayList<>();
    private final List<Long> progress = new ArrayList<>();
    private final CorrectionSink sink = new CorrectionSink() {
        @Override
        public void update(String rowKey, GenericRecord row, long t, long diff) {
            updateTimes.add(t);
        }

        @Override
        public void progress(long upper) {
            progress.add(upper);
        }

        @Override
        public void flush() {
        }
    };

    @Test
    void shouldSendAtTheRateOnEveryRunOfOneRunner() {
        WorkloadRunner runner = new WorkloadRunner(sink, new Workload(1, 10, 0.2), time);
        long first = runner.run(1_000, 1_000, Long.MAX_VALUE, 100, n -> { });
        assertTrue(first >= 990 && first <= 1_000, "first run: " + first);
        long second = runner.run(1_000, 500, Long.MAX_VALUE, 100, n -> { });
        assertTrue(second >= 490 && second <= 500, "second run sends again: " + second);
        assertEquals(200, runner.run(1_000, 1_000, 200, 100, n -> { }), "a run stops at its own count");
        assertEquals(first + second + 200, updateTimes.size());
        assertTrue(progress.size() >= 12, "progress about every 100 ms: " + progress.size());
    }

    @Test
    void shouldNeverPromiseProgressPastAnUpdateItSendsLater() {
        WorkloadRunner runner = new WorkloadRunner(sink, new Workload(2, 10, 0.2), time);
        runner.run(500, 2_000, Long.MAX_VALUE, 50, n -> { });
        long upper = runner.sealThrough(1000);
        assertTrue(updateTimes.stream().allMatch(t -> t < upper), "every update is below the final progress");
        assertEquals(0, upper % 1000, "the final progress is a grid point");
        for (int i = 1; i < updateTimes.size(); i++) {
            assertTrue(updateTimes.get(i) >= updateTimes.get(i - 1), "update times never go back");
        }
    }
}
