package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryBenchTest {
    private static MemoryBench.Run run(String label, long bound, long cpuTicks, long maxRssKb) {
        return new MemoryBench.Run(label, bound, new CatchUpFigures("barrier", 1000, "512m", 1_000_000, true, 50, 45,
            new ProcSample(cpuTicks, maxRssKb), new SealCounts(40, 40, 40, 40, 40),
            new CatchUpFigures.SnapshotCheck(10, true), Map.of()));
    }

    @Test
    void shouldSetEachRunsRssAndCpuAgainstTheUnboundedRuns() {
        String table = MemoryBench.format(List.of(run("unbounded", 0, 5_000, 1_000 * 1024),
            run("bounded", 256L << 20, 6_000, 500 * 1024)));

        assertTrue(table.contains("barrier 1 s grid unbounded"), table);
        assertTrue(table.contains("1.00x, 1.00x"), table);
        assertTrue(table.contains("256") && table.contains("0.50x, 1.20x"), table);
        assertTrue(table.contains(" 1000 ") && table.contains(" 500 "), "max RSS in MB: " + table);
    }
}
