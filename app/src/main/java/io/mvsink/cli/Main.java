package io.mvsink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mvsink} command line: the only room that knows picocli. */
@Command(name = "mvsink", mixinStandardHelpOptions = true, version = "mvsink 0.1.0",
    description = "Sinks a stream of view corrections into Azure Blob Storage as coalesced, sealed batches.",
    subcommands = {RunCommand.class, ProduceCommand.class, SnapshotCommand.class, GcCommand.class, DemoCommand.class,
        BenchCommand.class, OptionsCommand.class, TopologyCommand.class, HealthCommand.class})
public final class Main {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (tests call this). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println("mvsink: " + e.getMessage());
            return 1;
        });
        return cli.execute(args);
    }
}
