package io.mvsink.it;

import io.mvsink.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs mvsink's command line in this JVM, as a user would in a shell, capturing what it prints on stdout. */
final class CliRun {
    private CliRun() {
    }

    /** The exit code and the non-blank lines printed on stdout, stripped. */
    record Result(int exit, List<String> lines) {
    }

    static Result run(List<String> args) {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.execute(args.toArray(String[]::new));
        } finally {
            System.setOut(out);
        }
        List<String> lines = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return new Result(exit, lines);
    }
}
