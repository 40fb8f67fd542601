package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.batch.CoalescingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaxRateReportTest {
    private static final RateSteps STEPS = new RateSteps(2000, 2, 8000, 60);

    /** A whole run's figures: {@code blobWrites} per interval and {@code batches} per append over 60 intervals. */
    private static BenchFigures run(String mode, long blobWrites, long batches) {
        return new BenchFigures(mode, 1, 1, 1, blobWrites * 60, 60, 60, batches * 60, blobWrites * 60, 100, 1, 1, 1, 0,
            0, 0, 0, 0, 0, 0, 0, 10, true);
    }

    /** A search that passed {@code passed} steps of 60 intervals with {@code writes} blob writes and batches each. */
    private static MaxRateBench.ModeResult mode(String mode, int passed, long writes) throws Exception {
        RateSearch.Result search = RateSearch.search(STEPS, 1000, rate -> rate > 2000 * Math.pow(2, passed - 1)
            ? StepVerdictTest.step(rate, (long) (rate * 60), 5000, 60, 1300, 1400)
            : new StepFigures(rate, 60, (long) (rate * 60), (long) (rate * 60), 60, 200, 400, 60, 60, writes * 60,
                writes * 60, 1300, 1400, 0, 30, 10));
        return new MaxRateBench.ModeResult(mode, search, run(mode, writes, writes));
    }

    @Test
    void shouldCheckBarrierAtItsHighestRateAgainstNoneAtItsOwn() throws Exception {
        List<BenchTargets.Check> checks = MaxRateReport.targets(List.of(mode("none", 2, 8), mode("barrier", 3, 1)), STEPS);
        assertEquals(List.of(true, true, true, true, true, true), checks.stream().map(BenchTargets.Check::met).toList());
        assertEquals("barrier blob writes per interval <= 0.15x none's, each at its highest rate", checks.get(3).target());
        assertEquals("1.00 at 8000/s vs none 8.00 at 4000/s = 0.13x", checks.get(3).measured());
    }

    @Test
    void shouldMissWhenTheFirstStepFailsOrBarrierSplitsItsBatches() throws Exception {
        List<BenchTargets.Check> checks = MaxRateReport.targets(List.of(mode("none", 0, 8), mode("barrier", 1, 2)), STEPS);
        assertEquals(List.of(false, true, false, true, true), checks.stream().map(BenchTargets.Check::met).toList());
        assertEquals("FAIL: seal p99 5000 ms > 2000 ms", checks.get(0).measured());
    }

    @Test
    void shouldWriteEveryStepWithItsVerdictAndTheHighestRate(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("max-rate.json");
        BenchOptions options = new BenchOptions(60, 2000, 8, 8, List.of(CoalescingMode.BARRIER), 1000, file, 15, false);
        MaxRateReport.writeJson(file, options, STEPS, List.of(mode("barrier", 2, 1)));
        JsonNode mode = new ObjectMapper().readTree(Files.readString(file)).get("modes").get(0);
        assertEquals(4000.0, mode.get("highest_rate").asDouble());
        JsonNode steps = mode.get("search").get("steps");
        assertEquals(3, steps.size());
        assertEquals(400, steps.get(0).get("figures").get("seal_p99_ms").asLong());
        assertEquals(50.0, steps.get(0).get("figures").get("sink_cpu_percent").asDouble());
        assertEquals(1300, steps.get(0).get("figures").get("seal_lag_start_ms").asLong());
        assertTrue(steps.get(0).get("verdict").get("passed").asBoolean());
        assertEquals("seal p99 5000 ms > 2000 ms", steps.get(2).get("verdict").get("failures").get(0).asText());
        assertEquals(1.0, mode.get("run").get("batches_per_append").asDouble());
    }
}
