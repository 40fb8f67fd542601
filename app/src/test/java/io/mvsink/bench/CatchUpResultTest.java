package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.CoalescingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatchUpResultTest {
    private static final CatchUpOptions OPTIONS = new CatchUpOptions(1_000, 8, 8, List.of(CoalescingMode.BARRIER),
        1000, 0, "512m", 500, true, Duration.ofHours(1), Path.of("out.json"), false,
        List.of(CatchUpWorkload.NARROW, CatchUpWorkload.WIDE), "default");

    private static CatchUpFigures sink(String mode, boolean equalsModel, Map<String, Object> jmx) {
        return new CatchUpFigures(mode, 1000, "default", 1_000, true, 10, 5, new ProcSample(100, 1024),
            new SealCounts(10, 10, 10, 10, 10), new CatchUpFigures.SnapshotCheck(10, equalsModel), jmx);
    }

    @Test
    void shouldReportTheLateUpdatesEachRunCountedAgainstThoseSentAndItsDeadLetters() {
        CatchUpResult result = new CatchUpResult(CatchUpWorkload.WIDE, List.of(
            sink("none", true, Map.of(CatchUpResult.LATE_COUNTER, 5.0, CatchUpResult.DEAD_LETTER_COUNTER, 0.0)),
            sink("best-effort", true, Map.of(CatchUpResult.LATE_COUNTER, 4.0, CatchUpResult.DEAD_LETTER_COUNTER, 1.0)),
            sink("barrier", true, Map.of())), List.of(), 5);
        List<String> lines = result.lateLines();
        assertEquals(4, lines.size());
        assertTrue(lines.get(0).startsWith("late updates: 5 sent below their partition's frontier"), lines.get(0));
        assertTrue(lines.get(1).contains("counted late 5 (as sent), dead-lettered 0 (as expected)"), lines.get(1));
        assertTrue(lines.get(2).contains("counted late 4 (FEWER than sent), dead-lettered 1 (EXPECTED 0)"), lines.get(2));
        assertTrue(lines.get(3).contains("counted late - (n/a: JMX not read), dead-lettered - (n/a)"), lines.get(3));
        assertTrue(result.report(OPTIONS).startsWith("workload wide: wide rows (8 fields"));
        assertEquals(5L, result.toMap(OPTIONS).get("late_updates_sent"));
    }

    @Test
    void shouldBeCorrectOnlyIfEveryRunsSnapshotEqualsTheModel() {
        assertTrue(new CatchUpResult(CatchUpWorkload.NARROW, List.of(sink("barrier", true, Map.of())), List.of(), 0)
            .correct());
        assertFalse(new CatchUpResult(CatchUpWorkload.WIDE, List.of(sink("barrier", true, Map.of()),
            sink("none", false, Map.of())), List.of(), 0).correct());
    }
}
