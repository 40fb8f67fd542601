package io.mvsink.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * The {@code mvsink} command line: the only room that knows picocli. Every command inherits
 * {@code --help}, {@code --version} and {@code --verbose}; exit codes are {@link ExitCodes}. What
 * the command line says about itself (a command's start and stop, the error it failed with) goes
 * through the logger {@value #LOGGER}, so that it comes out in the log format chosen (README
 * "Logging"); a command's results go to stdout, and picocli's usage help for a command line it cannot
 * parse to stderr, as they are.
 */
@Command(name = "mvsink", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    scope = ScopeType.INHERIT,
    description = "Sinks a stream of view corrections into Azure Blob Storage as coalesced, sealed batches.",
    subcommands = {RunCommand.class, ProduceCommand.class, SnapshotCommand.class, SubscribeCommand.class, GcCommand.class, DemoCommand.class,
        BenchCommand.class, OptionsCommand.class, TopologyCommand.class, HealthCommand.class})
public final class Main {
    static final String VERBOSE = "--verbose";
    /** The logger of the command line's own lines: lifecycle and fatal. */
    static final String LOGGER = "mvsink";
    private static final int MAX_CAUSES = 20;

    @Option(names = VERBOSE, scope = ScopeType.INHERIT,
        description = "On an error, print its cause chain, not only its message.")
    boolean verbose;

    /** The JDK property that sizes the common fork-join pool. */
    static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    public static void main(String[] args) {
        asyncStagesOnAPool();
        System.exit(execute(args));
    }

    /**
     * On two cores or fewer the common pool's parallelism is 1, and {@code CompletableFuture} then
     * runs every async stage that names no executor on a thread of its own, started for it: the
     * Azure SDK's HTTP client completes each blob request that way, so every part written cost a
     * thread start (JFR of the catch-up bench, barrier on the 1 s grid: 128 threads started for 127
     * PUTs; 1 with this). With a parallelism of 2 the stages run on the common pool. Set before
     * anything can load {@code CompletableFuture}; an explicit setting wins.
     */
    static void asyncStagesOnAPool() {
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() <= 2) {
            System.setProperty(COMMON_POOL_PARALLELISM, "2");
        }
    }

    /** Runs the command line and returns its exit code (tests call this). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            report(e, verbose(parsed));
            return ExitCodes.FAILURE;
        });
        return cli.execute(args);
    }

    /** One line naming what failed; with {@code --verbose} a line per cause after it. */
    static void report(Throwable e, boolean verbose) {
        Logger log = log();
        log.error(describe(e));
        Throwable cause = e.getCause();
        for (int depth = 0; verbose && cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            log.error("caused by {}: {}", cause.getClass().getName(), cause.getMessage());
        }
    }

    /**
     * The logger {@value #LOGGER}, looked up when first used: logback starts with it, and
     * {@link #asyncStagesOnAPool} must run before anything loads {@code CompletableFuture}.
     */
    static Logger log() {
        return LoggerFactory.getLogger(LOGGER);
    }

    private static String describe(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** Whether --verbose was given, to the root or to the command that ran (it is inherited). */
    private static boolean verbose(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(VERBOSE)) {
                return true;
            }
        }
        return false;
    }
}
