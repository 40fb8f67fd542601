package io.mvsink.metrics;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launch's timeline, at DEBUG on the logger {@value #NAME} (README "Logging": set
 * {@code MVSINK_LAUNCH_LOG=DEBUG}): each step of a start, from the JVM's start to the first append,
 * as milliseconds since the JVM started, so that a slow first seal can be taken apart step by step.
 * A step that happens many times ({@link #first}) is logged the first time only, per owner.
 */
public final class LaunchLog {
    /** The logger's name. */
    public static final String NAME = "io.mvsink.launch";
    private static final Logger LOG = LoggerFactory.getLogger(NAME);

    private final AtomicBoolean done = new AtomicBoolean();

    /** Logs {@code step} (a message with SLF4J's {} for {@code args}) with the JVM's uptime. */
    public static void step(String step, Object... args) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("+" + ManagementFactory.getRuntimeMXBean().getUptime() + " ms: " + step, args);
        }
    }

    /** Logs {@code step} the first time this owner reaches it, and never again. */
    public void first(String step, Object... args) {
        if (LOG.isDebugEnabled() && done.compareAndSet(false, true)) {
            step(step, args);
        }
    }
}
