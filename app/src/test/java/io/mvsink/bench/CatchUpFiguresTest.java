package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.CoalescingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatchUpFiguresTest {
    private static final CatchUpOptions OPTIONS = new CatchUpOptions(1_000_000, 8, 8,
        List.of(CoalescingMode.NONE, CoalescingMode.BARRIER), 1000, 600_000, "512m", 500, false,
        Duration.ofHours(1), Path.of("out.json"), false, List.of(CatchUpWorkload.NARROW), "default");

    private static CatchUpFigures reference() {
        return new CatchUpFigures(CatchUpFigures.REFERENCE, 0, "default", 1_000_000, true, 50, 40,
            new ProcSample(8_000, 400_000), null, null, Map.of());
    }

    private static CatchUpFigures sink(String mode, long intervalMs, double seconds, long cpuTicks, long seals,
                                       long batches, long blobs) {
        return new CatchUpFigures(mode, intervalMs, "default", 1_000_000, true, seconds, seconds - 5,
            new ProcSample(cpuTicks, 500_000), new SealCounts(seals, batches, batches, blobs, blobs),
            new CatchUpFigures.SnapshotCheck(10, true), Map.of());
    }

    @Test
    void shouldTellTheChildsCpuFromTheWholeMachines() {
        CatchUpFigures run = new CatchUpFigures("barrier", 1000, "default", 1_000_000, true, 20, 15,
            new ProcSample(2_600, 500_000, 3_900), new SealCounts(10, 10, 10, 10, 10),
            new CatchUpFigures.SnapshotCheck(10, true), Map.of());
        assertEquals(1.3, run.coresBusy(), 1e-9);
        assertEquals(1.95, run.machineCoresBusy(), 1e-9, "39 busy seconds of every core over 20 s");
        assertEquals(195.0, (double) run.toMap().get("machine_average_cpu_percent"), 1e-9);
        assertTrue(Double.isNaN(reference().machineCoresBusy()), "unknown when /proc/stat was not read");
        assertNull(reference().toMap().get("machine_average_cpu_percent"));
        assertTrue(CatchUpTable.format(List.of(run)).contains("mach %"), "a column of its own");
    }

    @Test
    void shouldDeriveRatesCpuPerMillionAndPerSealFigures() {
        CatchUpFigures barrier = sink("barrier", 1000, 100, 12_000, 1000, 1020, 1050);
        assertEquals(10_000, barrier.updatesPerSecondFromLaunch(), 1e-9);
        assertEquals(1_000_000 / 95.0, barrier.updatesPerSecondFromFirst(), 1e-9);
        assertEquals(120, barrier.cpuSecondsPerMillion(), 1e-9);
        assertEquals(1.05, barrier.seals().putsPerSeal(), 1e-9);
        assertEquals(1.02, barrier.seals().batchesPerSeal(), 1e-9);
        assertEquals("barrier 1 s grid", barrier.name());
        assertEquals("barrier 10 min grid", sink("barrier", 600_000, 1, 1, 1, 1, 1).name());
    }

    @Test
    void shouldGiveRatiosToTheStreamsAppAndBetweenGrids() {
        List<CatchUpFigures> runs = List.of(reference(), sink("barrier", 1000, 100, 12_000, 1000, 1000, 1000),
            sink("barrier", 600_000, 80, 10_000, 5, 5, 5));
        Map<String, Object> ratios = CatchUpRatios.of(runs, OPTIONS);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> toReference = (Map<String, Map<String, Object>>) ratios.get("to_plain_streams_app");
        assertEquals(0.5, (Double) toReference.get("barrier 1 s grid").get("updates_per_second_from_launch"), 1e-9);
        assertEquals(1.5, (Double) toReference.get("barrier 1 s grid").get("cpu_per_update"), 1e-9);
        assertEquals(0.8, (Double) ratios.get("barrier_fine_to_wide_grid_updates_per_second"), 1e-9);
    }

    @Test
    void shouldLeaveARatioWithoutABaseEmpty() {
        assertNull(CatchUpRatios.ratio(1, 0));
        assertNull(CatchUpRatios.ratio(Double.NaN, 1));
        Map<String, Object> ratios = CatchUpRatios.of(List.of(sink("barrier", 1000, 1, 1, 1, 1, 1)), OPTIONS);
        assertNull(ratios.get("barrier_fine_to_wide_grid_updates_per_second"));
    }

    @Test
    void shouldWriteNotApplicableFiguresAsNull() {
        CatchUpFigures consumer = new CatchUpFigures(CatchUpFigures.CONSUMER, 0, "default", 1000, true, 2, Double.NaN,
            new ProcSample(100, 1024), null, null, Map.of());
        Map<String, Object> map = consumer.toMap();
        assertNull(map.get("updates_per_second_from_first_append"));
        assertEquals(500.0, map.get("updates_per_second_from_launch"));
        assertEquals(1.0, map.get("max_rss_mb"));
    }

    @Test
    void shouldCheckTheIssuesTargets() {
        // barrier: 30 s from launch (1.67x the reference's 50 s), first append at 5 s, 70 CPU s (0.875x, 233%)
        List<CatchUpFigures> runs = List.of(reference(),
            sink("none", 1000, 200, 20_000, 1000, 8000, 8000),
            sink("barrier", 1000, 30, 7_000, 1000, 1000, 1000),
            sink("barrier", 600_000, 70, 9_000, 5, 5, 5));
        List<CatchUpTargets.Check> checks = CatchUpTargets.check(runs, OPTIONS, 2);
        assertEquals(List.of(), checks.stream().filter(c -> c.verdict() != CatchUpTargets.Verdict.MET).toList());
        List<CatchUpTargets.Check> slow = CatchUpTargets.check(List.of(reference(),
            sink("barrier", 1000, 300, 30_000, 1000, 1100, 1200)), OPTIONS, 2);
        assertEquals(List.of("barrier 1 s grid updates/s >= 0.8x the plain Streams app's",
                "barrier 1 s grid: CPU per update <= 1.25x the plain Streams app's",
                "barrier 1 s grid: blob PUTs per seal <= 1.1", "barrier 1 s grid: batches per append <= 1.05",
                "barrier 1 s grid updates/s from launch >= 1.5x the plain Streams app's (issue 23)",
                "barrier 1 s grid: CPU per update <= 0.9x the plain Streams app's (issue 23)",
                "barrier 1 s grid: average CPU from launch >= 180% (90% of 2 cores; issue 23)"),
            slow.stream().filter(c -> c.verdict() == CatchUpTargets.Verdict.MISSED).map(CatchUpTargets.Check::target)
                .toList());
    }

    @Test
    void shouldCheckIssue23sTargetsOnTheTimeToTheFirstAppendAndTheCoresBusy() {
        CatchUpFigures late = new CatchUpFigures("barrier", 1000, "default", 1_000_000, true, 30, 24.9,
            new ProcSample(5_000, 500_000), new SealCounts(10, 10, 10, 10, 10),
            new CatchUpFigures.SnapshotCheck(10, true), Map.of());
        assertEquals(5.1, late.secondsToFirst(), 1e-9);
        assertEquals(50.0 / 30, late.coresBusy(), 1e-9);
        Map<String, CatchUpTargets.Verdict> verdicts = new java.util.HashMap<>();
        CatchUpTargets.check(List.of(reference(), late), OPTIONS, 2).forEach(c -> verdicts.put(c.target(), c.verdict()));
        assertEquals(CatchUpTargets.Verdict.MISSED, verdicts.get("barrier 1 s grid: launch to first append <= 5 s (issue 23)"));
        assertEquals(CatchUpTargets.Verdict.MISSED,
            verdicts.get("barrier 1 s grid: average CPU from launch >= 180% (90% of 2 cores; issue 23)"));
        CatchUpTargets.check(List.of(reference(), late), OPTIONS, 1).forEach(c -> verdicts.put(c.target(), c.verdict()));
        assertEquals(CatchUpTargets.Verdict.MET,
            verdicts.get("barrier 1 s grid: average CPU from launch >= 90% (90% of 1 core; issue 23)"));
        assertEquals(5.1, (Double) late.toMap().get("seconds_to_first_append"), 1e-9);
    }

    @Test
    void shouldNameTheWideGridsChecksWithoutAGridWhenNoneRan() {
        CatchUpOptions fineOnly = new CatchUpOptions(1_000_000, 8, 8, List.of(CoalescingMode.BARRIER), 1000, 0, "512m",
            500, false, Duration.ofHours(1), Path.of("out.json"), false, List.of(CatchUpWorkload.NARROW), "default");
        List<String> targets = CatchUpTargets.check(List.of(reference()), fineOnly, 2).stream()
            .map(CatchUpTargets.Check::target).toList();
        assertTrue(targets.contains("barrier 1 s grid updates/s >= 0.8x barrier on the wide grid"), targets.toString());
        assertTrue(targets.contains("barrier wide grid completes with -Xmx512m"), targets.toString());
        assertTrue(targets.stream().noneMatch(t -> t.contains("0 min")), targets.toString());
    }
}
