package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @TempDir
    Path dir;

    @Test
    void shouldKeepOnlyTheLastLines() throws Exception {
        Path log = dir.resolve("p.log");
        Files.writeString(log, IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i)
                .collect(Collectors.joining("\n")));
        assertEquals("  | line 99\n  | line 100\n", LogTail.lastLines(log, 2));
    }

    @Test
    void shouldReturnEveryLineOfAShortLog() throws Exception {
        Path log = dir.resolve("p.log");
        Files.writeString(log, "only\n");
        assertEquals("  | only\n", LogTail.lastLines(log, 40));
    }

    @Test
    void shouldSayWhenThereIsNoLogOrItIsEmpty() throws Exception {
        assertTrue(LogTail.lastLines(dir.resolve("missing.log"), 40).contains("no log at"));
        Path empty = Files.createFile(dir.resolve("empty.log"));
        assertTrue(LogTail.lastLines(empty, 40).contains("is empty"));
    }
}
