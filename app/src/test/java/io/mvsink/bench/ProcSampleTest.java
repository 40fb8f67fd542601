package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProcSampleTest {

    @Test
    void shouldAddUserAndSystemTicksOfAStatLine() {
        String stat = "4242 (java) S 1 4242 4242 0 -1 4194560 123 0 0 0 1500 250 7 9 20 0 40 0 100 0 0";
        assertEquals(1750, ProcSample.cpuTicks(stat));
    }

    @Test
    void shouldCountFieldsAfterTheLastParenthesisOfTheCommandName() {
        String stat = "17 (my (odd) name) R 1 17 17 0 -1 0 0 0 0 0 30 12 0 0 20 0 1 0 5 0 0";
        assertEquals(42, ProcSample.cpuTicks(stat));
    }

    @Test
    void shouldRefuseALineWithoutACommandName() {
        assertThrows(IllegalArgumentException.class, () -> ProcSample.cpuTicks("not a stat line"));
    }

    @Test
    void shouldReadThePeakResidentSetOfAStatusText() {
        String status = "Name:\tjava\nVmPeak:\t 9000000 kB\nVmHWM:\t  524288 kB\nVmRSS:\t  400000 kB\n";
        assertEquals(524288, ProcSample.maxRssKb(status));
        assertEquals(0, ProcSample.maxRssKb("Name:\tkthreadd\n"));
    }

    @Test
    void shouldTurnTicksIntoSeconds() {
        assertEquals(12.5, new ProcSample(1250, 0).cpuSeconds(), 1e-9);
    }

    @Test
    void shouldReadThisProcess() {
        ProcSample self = ProcSample.of(ProcessHandle.current().pid());
        org.junit.jupiter.api.Assertions.assertTrue(self.maxRssKb() > 0);
    }
}
