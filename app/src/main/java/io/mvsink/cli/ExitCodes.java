package io.mvsink.cli;

import java.util.List;
import picocli.CommandLine;

/** Every exit code of every command, in one place; the README's "Exit codes" lists them. */
final class ExitCodes {
    /** The command did what it was asked. */
    static final int OK = CommandLine.ExitCode.OK;
    /** The command failed: a bad option value, an unreachable service, a check that did not hold. */
    static final int FAILURE = CommandLine.ExitCode.SOFTWARE;
    /** The command line could not be parsed (picocli's own code): an unknown option, a missing or malformed value. */
    static final int USAGE = CommandLine.ExitCode.USAGE;
    /** gc stopped deleting early because its state grew too old: nothing is wrong, run it again. */
    static final int GC_STOPPED_EARLY = 3;

    static final List<Integer> ALL = List.of(OK, FAILURE, USAGE, GC_STOPPED_EARLY);

    private ExitCodes() {
    }
}
