package io.mvsink.local;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One child process of the local stack: started with its output appended to a log file,
 * waited for until a readiness check passes, and stopped with its descendants.
 *
 * <p>A JVM shutdown hook is registered before the process is launched and removed by
 * {@link #stop()}, so a process is never left behind by a JVM that exits, even after a failed
 * start or a test that forgot to close the stack. {@code stop()} may run concurrently with a
 * start in progress (a sibling failed): the start then fails with "stopped while starting".
 */
final class ManagedProcess {

    static final int LOG_TAIL_LINES = 40;
    private static final Logger log = LoggerFactory.getLogger(ManagedProcess.class);
    private static final long POLL_MS = 200;

    /** Passes once the process serves its clients; may throw, which counts as not yet. */
    @FunctionalInterface
    interface ReadinessCheck {
        boolean isReady() throws Exception;
    }

    private final String name;
    private final List<String> command;
    private final Path workingDir;
    private final Path logFile;
    private final Duration stopGrace;
    private final Time time;
    private final Thread shutdownHook;
    private ProcessState state = ProcessState.NEW;
    private Process process;

    ManagedProcess(String name, List<String> command, Path workingDir, Path logFile,
                   Duration stopGrace, Time time) {
        this.name = name;
        this.command = List.copyOf(command);
        this.workingDir = workingDir;
        this.logFile = logFile;
        this.stopGrace = stopGrace;
        this.time = time;
        this.shutdownHook = new Thread(this::stop, "mvsink-stop-" + name);
    }

    /** Launches the process and returns once {@code check} passes; on failure its tree is gone. */
    void start(ReadinessCheck check, Duration timeout) {
        Process started = launch();
        long deadline = time.milliseconds() + timeout.toMillis();
        Exception lastError = null;
        while (true) {
            if (state() == ProcessState.STOPPED) {
                throw failure("was stopped while starting", null);
            }
            if (!started.isAlive()) {
                throw fail("exited with code " + started.exitValue() + " before it was ready", lastError);
            }
            try {
                if (check.isReady()) {
                    if (!markReady()) {
                        throw failure("was stopped while starting", null);
                    }
                    return;
                }
            } catch (Exception e) {
                lastError = e;
            }
            if (time.milliseconds() >= deadline || Thread.currentThread().isInterrupted()) {
                throw fail("was not ready within " + timeout.toSeconds() + " s", lastError);
            }
            time.sleep(POLL_MS);
        }
    }

    /** Launches the process and waits for it to exit with code 0, e.g. a formatting tool. */
    void runToCompletion(Duration timeout) {
        Process started = launch();
        try {
            if (!started.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw fail("did not finish within " + timeout.toSeconds() + " s", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw fail("was interrupted while waiting for it to finish", e);
        }
        if (started.exitValue() != 0) {
            throw fail("exited with code " + started.exitValue(), null);
        }
        if (!markReady()) {
            throw failure("was stopped while running", null);
        }
        stop();
    }

    /** Destroys the process and its descendants; idempotent, safe from any thread. */
    void stop() {
        Process toStop = markStopped();
        if (toStop != null) {
            List<ProcessHandle> survivors = ProcessTree.destroy(toStop.toHandle(), stopGrace);
            if (!survivors.isEmpty()) {
                log.warn("{}: processes {} survived SIGKILL", name, survivors);
            }
        }
    }

    /** Like {@link #stop()} but without a grace period: SIGKILL to the whole tree at once. */
    void kill() {
        Process toKill = markStopped();
        if (toKill != null) {
            ProcessTree.destroyForcibly(toKill.toHandle());
        }
    }

    /** Moves to STOPPED and returns the process to end, or null if already ended or never launched. */
    private Process markStopped() {
        Process toEnd;
        synchronized (this) {
            if (state.isTerminal()) {
                return null;
            }
            moveTo(ProcessState.STOPPED);
            toEnd = process;
        }
        removeShutdownHook();
        return toEnd;
    }

    synchronized ProcessState state() {
        return state;
    }

    synchronized Optional<ProcessHandle> handle() {
        return Optional.ofNullable(process).map(Process::toHandle);
    }

    private synchronized Process launch() {
        if (state == ProcessState.STOPPED) {
            throw failure("was stopped before it was launched", null);
        }
        moveTo(ProcessState.STARTING);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            Files.createDirectories(logFile.getParent());
            process = new ProcessBuilder(command)
                    .directory(workingDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(logFile.toFile()))
                    .start();
            process.getOutputStream().close();
            return process;
        } catch (IOException e) {
            throw fail("could not be launched (" + String.join(" ", command) + ")", e);
        }
    }

    /** Destroys the tree, marks the process FAILED and returns the exception to throw. */
    private LocalStackException fail(String what, Throwable cause) {
        Process toStop;
        synchronized (this) {
            toStop = process;
            if (!state.isTerminal()) {
                moveTo(ProcessState.FAILED);
            }
        }
        if (toStop != null) {
            ProcessTree.destroy(toStop.toHandle(), Duration.ZERO);
        }
        removeShutdownHook();
        return failure(what, cause);
    }

    private LocalStackException failure(String what, Throwable cause) {
        String message = name + " " + what + (cause == null ? "" : " (last error: " + cause + ")")
                + "; last lines of " + logFile + ":\n" + LogTail.lastLines(logFile, LOG_TAIL_LINES);
        return new LocalStackException(message, cause);
    }

    /** READY unless a concurrent {@link #stop()} came first. */
    private synchronized boolean markReady() {
        if (state == ProcessState.STOPPED) {
            return false;
        }
        moveTo(ProcessState.READY);
        return true;
    }

    private synchronized void moveTo(ProcessState next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException(name + ": cannot move from " + state + " to " + next);
        }
        log.debug("{}: {} -> {}", name, state, next);
        state = next;
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down and this may be the hook itself; nothing to remove
        }
    }
}
