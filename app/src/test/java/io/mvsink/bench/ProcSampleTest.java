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
        ProcSample self = ProcSample.of(ProcessHandle.current().pid(), -1);
        org.junit.jupiter.api.Assertions.assertTrue(self.maxRssKb() > 0);
        assertEquals(-1, self.machineBusyTicks(), "not asked for");
        assertEquals(Double.NaN, self.machineBusySeconds());
    }

    @Test
    void shouldCountTheMachinesBusyTicksWithoutIdleAndIoWait() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        String stat = "cpu  1000 20 300 90000 400 5 60 7 0 0\ncpu0 500 10 150 45000 200 2 30 3 0 0\nintr 1 2 3\n";
        assertEquals(1000 + 20 + 300 + 5 + 60 + 7, ProcSample.busyTicks(stat));
        assertThrows(IllegalArgumentException.class, () -> ProcSample.busyTicks("intr 1 2 3\n"));
    }

    @Test
    void shouldReadTheMachinesBusyTicksSinceALaunch() throws Exception {
        long before = ProcSample.machineBusyTicksNow();
        org.junit.jupiter.api.Assertions.assertTrue(before > 0, "/proc/stat read: " + before);
        long spinUntil = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < spinUntil) {
            x += System.nanoTime() % 7;
        }
        ProcSample sample = ProcSample.of(ProcessHandle.current().pid(), before);
        org.junit.jupiter.api.Assertions.assertTrue(sample.machineBusyTicks() >= 10,
            "at least this thread's 0.3 s of spinning (" + x + "): " + sample.machineBusyTicks() + " ticks");
        org.junit.jupiter.api.Assertions.assertTrue(sample.machineBusySeconds() >= 0.1);
    }
}
