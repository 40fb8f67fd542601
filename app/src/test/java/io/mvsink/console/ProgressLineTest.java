package io.mvsink.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void shouldRewriteTheLineInPlaceOnATerminal() {
        ProgressLine progress = new ProgressLine(out, true, nanos::get, ProgressLine.LOG_EVERY);

        progress.update("sent 1");
        progress.update("sent 10");
        progress.update("sent 9");
        progress.finish("done");
        progress.update("again");
        progress.end();

        assertEquals("\rsent 1\rsent 10\rsent 9 \rdone  " + System.lineSeparator() + "\ragain" + System.lineSeparator(),
            shown());
    }

    @Test
    void shouldLogAFullLineAtMostEveryFewSecondsOffATerminal() {
        ProgressLine progress = new ProgressLine(out, false, nanos::get, Duration.ofSeconds(5));

        progress.update("sent 1");
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        progress.update("sent 2");
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        progress.update("sent 3");
        progress.update("sent 4");
        progress.end();
        progress.finish("done");

        String n = System.lineSeparator();
        assertEquals("sent 1" + n + "sent 3" + n + "done" + n, shown());
    }

    private String shown() {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
