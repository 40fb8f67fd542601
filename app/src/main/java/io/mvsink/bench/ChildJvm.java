package io.mvsink.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One measured program of the catch-up bench in a JVM of its own (the current {@code java} and
 * class path), so that its CPU and memory can be read from {@code /proc} apart from the bench's
 * and the other programs'. Output goes to a log file. {@link #stop(Duration)} samples
 * {@code /proc} first, then sends SIGTERM and waits, then kills.
 */
final class ChildJvm implements AutoCloseable {
    private final String label;
    private final Process process;
    private final long launchedNanos;
    private final long machineBusyAtLaunch;
    private final Path log;

    private ChildJvm(String label, Process process, long launchedNanos, long machineBusyAtLaunch, Path log) {
        this.label = label;
        this.process = process;
        this.launchedNanos = launchedNanos;
        this.machineBusyAtLaunch = machineBusyAtLaunch;
        this.log = log;
    }

    static ChildJvm start(String label, List<String> jvmOptions, String mainClass, List<String> args, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(archiveOptions(System.getProperty("java.class.path"), Boolean.parseBoolean(System.getProperty("mvsink.bench.cds", "true"))));
        command.addAll(extraOptions(label));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        try {
            long machineBusy = ProcSample.machineBusyTicksNow();
            long launched = System.nanoTime();
            return new ChildJvm(label, builder.start(), launched, machineBusy, log);
        } catch (IOException e) {
            throw new UncheckedIOException("bench: cannot start " + label + " (" + mainClass + ")", e);
        }
    }

    /**
     * The class-data sharing archive the build leaves beside the runnable jar ({@code mvsink.jar},
     * {@code mvsink.jsa}; docs/ARCHITECTURE.md, "Start-up"), for every child when the bench runs from
     * that jar: the sink starts as the README launches it, and the programs it is measured against
     * start with the same archive (it holds the Kafka clients' and Kafka Streams' classes too).
     * {@code -Dmvsink.bench.cds=false} starts every child without it.
     */
    static List<String> archiveOptions(String classPath, boolean enabled) {
        if (!enabled || !classPath.endsWith(".jar") || classPath.contains(File.pathSeparator)) {
            return List.of();
        }
        Path archive = Path.of(classPath.substring(0, classPath.length() - ".jar".length()) + ".jsa");
        return Files.isRegularFile(archive) ? List.of("-XX:SharedArchiveFile=" + archive) : List.of();
    }

    /**
     * JVM options for every child from the system property {@code mvsink.bench.child.jvm.options}
     * (space-separated; {@code {label}} stands for the child's label), e.g. to profile each run:
     * {@code -Dmvsink.bench.child.jvm.options=-XX:StartFlightRecording=filename=/tmp/{label}.jfr}.
     */
    static List<String> extraOptions(String label) {
        String options = System.getProperty("mvsink.bench.child.jvm.options", "").trim();
        List<String> list = new ArrayList<>();
        for (String option : options.isEmpty() ? new String[0] : options.split("\\s+")) {
            list.add(option.replace("{label}", label));
        }
        return list;
    }

    long launchedNanos() {
        return launchedNanos;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** CPU so far and peak RSS of the running child, and the machine's CPU since its launch. */
    ProcSample sample() {
        return ProcSample.of(process.pid(), machineBusyAtLaunch);
    }

    /** Samples {@code /proc}, then stops the child (SIGTERM, then SIGKILL after {@code grace}). */
    ProcSample stop(Duration grace) throws InterruptedException {
        ProcSample sample = sample();
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            System.err.println("bench: " + label + " did not stop within " + grace + "; killing it");
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        return sample;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
