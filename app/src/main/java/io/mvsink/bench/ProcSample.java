package io.mvsink.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child process's CPU and memory as Linux reports them: user + system time from
 * {@code /proc/<pid>/stat} (fields 14 and 15, in clock ticks) and the peak resident set
 * ({@code VmHWM}) from {@code /proc/<pid>/status}. Sampled just before the child is stopped, so
 * the CPU is the child's own over its whole life, every thread included. Beside it, the whole
 * machine's busy time over the same life ({@code /proc/stat}), every process's: what the child
 * did not use of the cores went to the others (the bench's broker, registry and blob emulator)
 * or was idle.
 *
 * @param cpuTicks  utime + stime, in clock ticks
 * @param maxRssKb  VmHWM in kB
 * @param machineBusyTicks every CPU's busy time (not idle, not waiting for I/O) since the child's
 *                         launch, in clock ticks; -1 if unknown
 */
record ProcSample(long cpuTicks, long maxRssKb, long machineBusyTicks) {
    /** Linux's {@code USER_HZ} ({@code getconf CLK_TCK}): 100 on every architecture the bench runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final Path MACHINE_STAT = Path.of("/proc/stat");

    ProcSample(long cpuTicks, long maxRssKb) {
        this(cpuTicks, maxRssKb, -1);
    }

    double cpuSeconds() {
        return (double) cpuTicks / CLOCK_TICKS_PER_SECOND;
    }

    /** Every CPU's busy seconds since the child's launch (summed over the cores); NaN if unknown. */
    double machineBusySeconds() {
        return machineBusyTicks < 0 ? Double.NaN : (double) machineBusyTicks / CLOCK_TICKS_PER_SECOND;
    }

    /**
     * Reads {@code /proc/<pid>/stat} and {@code /proc/<pid>/status}, and the machine's busy ticks
     * minus {@code machineBusyAtLaunch} (-1: unknown).
     */
    static ProcSample of(long pid, long machineBusyAtLaunch) {
        Path dir = Path.of("/proc", Long.toString(pid));
        try {
            long machine = machineBusyAtLaunch < 0 ? -1 : machineBusyTicksNow();
            return new ProcSample(cpuTicks(Files.readString(dir.resolve("stat"))),
                maxRssKb(Files.readString(dir.resolve("status"))), machine < 0 ? -1 : machine - machineBusyAtLaunch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc of process " + pid + " (has it exited?)", e);
        }
    }

    /** The machine's busy ticks so far, every CPU summed ({@code /proc/stat}); -1 where there is none. */
    static long machineBusyTicksNow() {
        try {
            return busyTicks(Files.readString(MACHINE_STAT));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The busy ticks of a {@code /proc/stat} text's first ("cpu") line: user, nice, system, irq,
     * softirq and steal; idle and iowait left out (guest time is already inside user and nice).
     */
    static long busyTicks(String stat) {
        String first = stat.lines().findFirst().orElse("");
        String[] f = first.trim().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not a /proc/stat text: " + first);
        }
        return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3])
            + Long.parseLong(f[6]) + Long.parseLong(f[7]) + Long.parseLong(f[8]);
    }

    /**
     * utime + stime of a {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses
     * and may hold spaces and parentheses itself, so fields are counted after its last ')'.
     */
    static long cpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + stat);
        }
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** VmHWM in kB from a {@code /proc/<pid>/status} text; 0 if absent (a kernel thread, a zombie). */
    static long maxRssKb(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.substring("VmHWM:".length()).replace("kB", "").trim());
            }
        }
        return 0;
    }
}
