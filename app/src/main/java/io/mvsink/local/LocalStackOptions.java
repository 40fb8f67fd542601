package io.mvsink.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How {@link LocalStackLauncher} starts the local stack. Immutable; start from
 * {@link #defaults()} and change what you need with the {@code with...} methods.
 */
public final class LocalStackOptions {

    /** The services of the local stack. */
    public enum Component { KAFKA, REGISTRY, BLOB }

    /** Default time each service gets to become ready. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(120);

    private final Path stackDir;
    private final Path workDir;
    private final Set<Component> components;
    private final boolean verbose;
    private final Duration startTimeout;

    private LocalStackOptions(Path stackDir, Path workDir, Set<Component> components,
                              boolean verbose, Duration startTimeout) {
        this.stackDir = stackDir;
        this.workDir = workDir;
        this.components = Set.copyOf(components);
        this.verbose = verbose;
        this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
    }

    /**
     * Every component as a process, the stack dir found as {@link #stackDir()} says, a fresh
     * temporary work dir deleted on close, no progress output, {@link #DEFAULT_START_TIMEOUT}.
     */
    public static LocalStackOptions defaults() {
        return new LocalStackOptions(null, null, EnumSet.allOf(Component.class), false,
                DEFAULT_START_TIMEOUT);
    }

    /** The built {@code local-stack} directory (holds {@code target/} and {@code node_modules/}). */
    public LocalStackOptions withStackDir(Path dir) {
        return new LocalStackOptions(Objects.requireNonNull(dir, "dir"), workDir, components,
                verbose, startTimeout);
    }

    /** A work dir for logs and data; unlike the default temporary one, it is kept on close. */
    public LocalStackOptions withWorkDir(Path dir) {
        return new LocalStackOptions(stackDir, Objects.requireNonNull(dir, "dir"), components,
                verbose, startTimeout);
    }

    /** Which services to start; e.g. tests that run the broker in-JVM leave out {@code KAFKA}. */
    public LocalStackOptions withComponents(Set<Component> started) {
        if (started.isEmpty()) {
            throw new IllegalArgumentException("components: start at least one component");
        }
        return new LocalStackOptions(stackDir, workDir, EnumSet.copyOf(started), verbose, startTimeout);
    }

    /** Whether to print one progress line per ready service to stderr. */
    public LocalStackOptions withVerbose(boolean on) {
        return new LocalStackOptions(stackDir, workDir, components, on, startTimeout);
    }

    /** How long each service may take to become ready. */
    public LocalStackOptions withStartTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("startTimeout: must be positive, was " + timeout);
        }
        return new LocalStackOptions(stackDir, workDir, components, verbose, timeout);
    }

    /**
     * The stack dir if set; else the launcher uses the system property {@code mvsink.stack.dir},
     * else {@code ./local-stack}, else a {@code local-stack} directory above the running jar.
     */
    public Optional<Path> stackDir() {
        return Optional.ofNullable(stackDir);
    }

    /** The work dir if set; else the launcher creates a temporary one and deletes it on close. */
    public Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }

    public Set<Component> components() {
        return components;
    }

    public boolean verbose() {
        return verbose;
    }

    public Duration startTimeout() {
        return startTimeout;
    }
}
