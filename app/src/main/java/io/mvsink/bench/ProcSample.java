package io.mvsink.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child process's CPU and memory as Linux reports them: user + system time from
 * {@code /proc/<pid>/stat} (fields 14 and 15, in clock ticks) and the peak resident set
 * ({@code VmHWM}) from {@code /proc/<pid>/status}. Sampled just before the child is stopped, so
 * the CPU is the child's own over its whole life, every thread included.
 *
 * @param cpuTicks  utime + stime, in clock ticks
 * @param maxRssKb  VmHWM in kB
 */
record ProcSample(long cpuTicks, long maxRssKb) {
    /** Linux's {@code USER_HZ} ({@code getconf CLK_TCK}): 100 on every architecture the bench runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    double cpuSeconds() {
        return (double) cpuTicks / CLOCK_TICKS_PER_SECOND;
    }

    /** Reads {@code /proc/<pid>/stat} and {@code /proc/<pid>/status}. */
    static ProcSample of(long pid) {
        Path dir = Path.of("/proc", Long.toString(pid));
        try {
            return new ProcSample(cpuTicks(Files.readString(dir.resolve("stat"))),
                maxRssKb(Files.readString(dir.resolve("status"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc of process " + pid + " (has it exited?)", e);
        }
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
