package io.mvsink.console;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The one live progress line of a long command, on stderr. On a terminal each update rewrites the
 * line in place ({@code \r}); anywhere else (a container log, a file) an update is a line of its own,
 * at most one every {@link #LOG_EVERY}, so that a log holds a readable line every few seconds, not one
 * endless line of carriage returns.
 */
public final class ProgressLine {
    /** How often a progress line is written when stderr is not a terminal. */
    public static final Duration LOG_EVERY = Duration.ofSeconds(5);

    private final PrintStream out;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private final long everyNanos;
    private long lastLineAt;
    private boolean logged;
    private int shownLength;

    ProgressLine(PrintStream out, boolean terminal, LongSupplier nanoTime, Duration every) {
        this.out = out;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.everyNanos = every.toNanos();
    }

    /** A progress line on stderr, rewritten in place when the process has a terminal ({@code System.console()}). */
    public static ProgressLine onStderr() {
        return new ProgressLine(System.err, System.console() != null, System::nanoTime, LOG_EVERY);
    }

    /** Shows {@code line} as the current progress (off a terminal: only if the last was long enough ago). */
    public synchronized void update(String line) {
        if (terminal) {
            rewrite(line);
            return;
        }
        long now = nanoTime.getAsLong();
        if (!logged || now - lastLineAt >= everyNanos) {
            out.println(line);
            lastLineAt = now;
            logged = true;
        }
    }

    /** Ends the progress with {@code line}, always shown, on a line of its own. */
    public synchronized void finish(String line) {
        if (terminal) {
            rewrite(line);
            end();
        } else {
            out.println(line);
        }
    }

    /** Ends a line being rewritten, so that what is printed next starts on a line of its own. */
    public synchronized void end() {
        if (shownLength > 0) {
            out.println();
            shownLength = 0;
        }
    }

    /** Rewrites the live line, padding it to clear what is left of a longer one before it. */
    private void rewrite(String line) {
        out.print("\r" + line + " ".repeat(Math.max(0, shownLength - line.length())));
        out.flush();
        shownLength = Math.max(1, line.length());
    }
}
