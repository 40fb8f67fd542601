package io.mvsink.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

/** The last lines of a process log, for error messages. */
final class LogTail {

    private LogTail() {
    }

    /** The last {@code maxLines} lines of {@code log}, each prefixed by "  | ", or a note why not. */
    static String lastLines(Path log, int maxLines) {
        if (!Files.exists(log)) {
            return "  (no log at " + log + ")";
        }
        Deque<String> tail = new ArrayDeque<>(maxLines);
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            lines.forEach(line -> {
                if (tail.size() == maxLines) {
                    tail.removeFirst();
                }
                tail.addLast(line);
            });
        } catch (IOException | RuntimeException e) {
            return "  (could not read " + log + ": " + e + ")";
        }
        if (tail.isEmpty()) {
            return "  (log " + log + " is empty)";
        }
        StringBuilder out = new StringBuilder();
        for (String line : tail) {
            out.append("  | ").append(line).append('\n');
        }
        return out.toString();
    }
}
