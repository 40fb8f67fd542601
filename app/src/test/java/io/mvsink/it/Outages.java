package io.mvsink.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When no child of a fleet ran: a child runs from its log's first {@code State transition from ... to
 * RUNNING} (its first stream thread or the client) until the fleet killed or stopped it. A stall that
 * spans an outage (every instance killed, stopped or still starting: under the chaos a restarted JVM
 * takes 15-20 s to run on two busy cores) cannot end before an instance runs again, whatever the sink
 * does; {@link #longestStallOutside} takes the outages out of each stall. Log times are this machine's wall clock,
 * ISO-8601 with the offset, as the children's text layout writes them.
 */
final class Outages {
    private static final Pattern TIME = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\S+) ");

    /** One child's running window, wall-clock milliseconds. */
    record Window(long fromMs, long toMs) {
    }

    private final List<Window> running;

    private Outages(List<Window> running) {
        this.running = running;
    }

    /** Outages between the given running windows. */
    static Outages of(Collection<Window> running) {
        return new Outages(List.copyOf(running));
    }

    /** The running windows of {@code children}; a child still alive runs until now. */
    static Outages read(List<ChildApp> children) throws IOException {
        List<Window> running = new ArrayList<>();
        for (ChildApp child : children) {
            long to = child.endedAtMs() > 0 ? child.endedAtMs() : System.currentTimeMillis();
            firstRunning(Files.readAllLines(child.logFile())).ifPresent(from -> running.add(new Window(from, to)));
        }
        return new Outages(running);
    }

    /** The wall-clock time of the first line of a child's log saying it runs, if any. */
    static Optional<Long> firstRunning(List<String> lines) {
        for (String line : lines) {
            Matcher m = TIME.matcher(line);
            if (m.find() && line.contains("State transition from") && line.endsWith("to RUNNING")) {
                return Optional.of(OffsetDateTime.parse(m.group(1)).toInstant().toEpochMilli());
            }
        }
        return Optional.empty();
    }

    /** Milliseconds of {@code [fromMs, toMs)} during which no child ran. */
    long outageMs(long fromMs, long toMs) {
        List<Long> points = new ArrayList<>(List.of(fromMs, toMs));
        for (Window w : running) {
            for (long at : new long[] {w.fromMs(), w.toMs()}) {
                if (at > fromMs && at < toMs) {
                    points.add(at);
                }
            }
        }
        points.sort(null);
        long outage = 0;
        for (int i = 1; i < points.size(); i++) {
            long mid = (points.get(i - 1) + points.get(i)) / 2;
            if (running.stream().noneMatch(w -> w.fromMs() <= mid && mid <= w.toMs())) {
                outage += points.get(i) - points.get(i - 1);
            }
        }
        return outage;
    }

    /** The longest time between consecutive advances ({@code advancesMs}, wall clock), less the outages in it. */
    long longestStallOutside(List<Long> advancesMs) {
        long longest = 0;
        for (int i = 1; i < advancesMs.size(); i++) {
            long from = advancesMs.get(i - 1);
            long to = advancesMs.get(i);
            longest = Math.max(longest, to - from - outageMs(from, to));
        }
        return longest;
    }
}
