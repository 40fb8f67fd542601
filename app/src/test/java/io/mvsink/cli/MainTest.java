package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line as its users expect it: help, version, exit codes and errors, decided without a broker. */
class MainTest {
    /** How a fatal line reads in the text layout (logback-test.xml, as the shipped one): level, logger, message. */
    private static final String FATAL = " ERROR " + Main.LOGGER + " - ";
    private static final String BAD_CONNECTION_STRING = "AccountKey=s3cret-not-a-connection-string";
    private static final List<String> BAD_BLOB_OPTIONS = List.of("--set", "bootstrap.servers=127.0.0.1:1",
        "--set", "corrections.topic=orders", "--set", "schema.registry.url=http://127.0.0.1:1",
        "--set", "blob.connection.string=" + BAD_CONNECTION_STRING);

    @Test
    void shouldPrintHelpAndVersionOfEveryCommand() {
        List<String> commands = new ArrayList<>(new CommandLine(new Main()).getSubcommands().keySet());
        commands.add(0, "");
        for (String command : commands) {
            Run help = run(command.isEmpty() ? new String[] {"--help"} : new String[] {command, "--help"});
            assertEquals(0, help.code, command + " --help: " + help.err);
            assertTrue(help.out.contains("Usage: mvsink" + (command.isEmpty() ? "" : " " + command)), help.out);

            Run version = run(command.isEmpty() ? new String[] {"--version"} : new String[] {command, "--version"});
            assertEquals(0, version.code, command + " --version: " + version.err);
            assertEquals("mvsink " + VersionProvider.version(), version.out.strip());
        }
    }

    @Test
    void shouldGiveGcStoppedEarlyAnExitCodeOfItsOwn() {
        int usage = run("gc", "--no-such-option").code;

        assertEquals(ExitCodes.USAGE, usage);
        assertNotEquals(usage, ExitCodes.GC_STOPPED_EARLY);
        assertEquals(ExitCodes.ALL.size(), ExitCodes.ALL.stream().distinct().count(), "every exit code means one thing");
    }

    @Test
    void shouldNameTheOptionOfABadConnectionStringOnOneLineWithoutItsValue() {
        Run gc = run(withBadBlobOptions("gc"));

        assertEquals(ExitCodes.FAILURE, gc.code, gc.err);
        assertTrue(gc.err.contains("blob.connection.string"), gc.err);
        assertFalse(gc.err.contains("s3cret"), gc.err);
        assertEquals(1, gc.err.lines().filter(line -> line.contains(FATAL)).count(), gc.err);
        assertFalse(gc.err.contains("caused by"), gc.err);
    }

    @Test
    void shouldRefuseToProduceTheWorkloadUnderASubjectNamedForAnotherRecord() {
        Run produce = run("produce", "--set", "bootstrap.servers=127.0.0.1:1", "--set", "corrections.topic=orders",
            "--set", "schema.registry.url=http://127.0.0.1:1", "--set", "blob.connection.string=UseDevelopmentStorage=true",
            "--set", "value.subject.name.strategy=RecordNameStrategy", "--set", "row.record.name=com.example.Order");

        assertEquals(ExitCodes.FAILURE, produce.code, produce.err);
        assertTrue(produce.err.contains("row.record.name") && produce.err.contains("io.mvsink.demo.Row")
            && produce.err.contains("com.example.Order"), produce.err);
    }

    @Test
    void shouldPrintTheCauseChainWhenVerbose() {
        Run gc = run(withBadBlobOptions("gc", "--verbose"));

        assertEquals(ExitCodes.FAILURE, gc.code, gc.err);
        assertTrue(gc.err.lines().anyMatch(line -> line.contains("caused by") && line.contains("Invalid connection string")),
            gc.err);
        assertFalse(gc.err.contains("s3cret"), gc.err);
    }

    @Test
    void shouldListEveryExitCodeInTheReadme() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (int code : ExitCodes.ALL) {
            assertTrue(readme.contains("| `" + code + "` |"), "README.md's exit code table lists " + code);
        }
    }

    @Test
    void shouldReportEveryConfigurationErrorAtOnceAndExitWithFailure() {
        Run run = run("run", "--set", "bootstrap.servers=127.0.0.1:1", "--set", "schema.registry.url=http://127.0.0.1:1",
            "--set", "blob.connection.string=UseDevelopmentStorage=true", "--set", "batch.intervl.ms=1000",
            "--set", "streams.transaction.timeout.ms=abc", "--set", "streams.producer.lingr.ms=5",
            "--set", "num.stream.threads=0");

        assertEquals(ExitCodes.FAILURE, run.code, run.err);
        assertTrue(run.err.lines().findFirst().orElseThrow().contains(FATAL + "5 configuration errors"), run.err);
        for (String expected : new String[] {"corrections.topic", "batch.intervl.ms (did you mean batch.interval.ms?)",
            "abc for configuration streams.transaction.timeout.ms",
            "streams.producer.lingr.ms (did you mean streams.producer.linger.ms?)",
            "0 for configuration num.stream.threads"}) {
            assertTrue(run.err.contains(expected), expected + " in " + run.err);
        }
        assertFalse(run.err.contains("For input string"), run.err);
    }

    private static String[] withBadBlobOptions(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(BAD_BLOB_OPTIONS);
        return all.toArray(String[]::new);
    }

    @Test
    void shouldRefuseSubscribeOptionsThatCannotWorkAsUsageErrorsNamingTheOption() {
        Run csv = run("subscribe", "--format", "csv");
        assertEquals(ExitCodes.USAGE, csv.code());
        assertTrue(csv.err().contains("--format") && csv.err().contains("json, avro"), csv.err());
        Run both = run("subscribe", "--as-of", "5", "--resume", "c/s/3:6");
        assertEquals(ExitCodes.USAGE, both.code());
        assertTrue(both.err().contains("--as-of and --resume exclude each other"), both.err());
        Run token = run("subscribe", "--resume", "latest");
        assertEquals(ExitCodes.USAGE, token.code());
        assertTrue(token.err().contains("--resume: 'latest' is not a resume token"), token.err());
        Run old = run("subscribe", "--resume", "3:1733280000762000");
        assertEquals(ExitCodes.USAGE, old.code());
        assertTrue(old.err().contains("--resume: '3:1733280000762000' is a resume token of an older mvsink")
            && old.err().contains("start over"), old.err());
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
        ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
        try {
            int code = Main.execute(args);
            return new Run(code, capturedOut.toString(StandardCharsets.UTF_8), capturedErr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
