package io.mvsink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the catch-up bench measured on one workload: every program's figures, the subscribers'
 * (with {@code --subscribe}), and how many updates the preload sent below their partition's
 * frontier, which the sink must count as late (and advance, so the snapshot still equals the
 * model) and must not dead-letter.
 */
record CatchUpResult(CatchUpWorkload workload, List<CatchUpFigures> figures, List<SubscriberFigures> subscribers,
                     long lateSent) {
    static final String LATE_COUNTER = "late-updates-total";
    static final String DEAD_LETTER_COUNTER = "dead-lettered-records-total";

    CatchUpResult {
        figures = List.copyOf(figures);
        subscribers = List.copyOf(subscribers);
    }

    /** Whether every mvsink run caught up with a snapshot equal to the model, and every subscriber's sum too. */
    boolean correct() {
        return figures.stream().filter(CatchUpFigures::isMvsink).allMatch(f -> f.completed() && f.snapshot().equalsModel())
            && subscribers.stream().allMatch(s -> s.sumEqualsModel() && s.failure() == null);
    }

    /** The workload's report: its table, the late updates sent and counted, the subscribers and the targets. */
    String report(CatchUpOptions options) {
        StringBuilder out = new StringBuilder();
        out.append("workload ").append(workload.label()).append(": ").append(workload.describe()).append("\n\n");
        out.append(CatchUpTable.format(figures)).append('\n');
        lateLines().forEach(line -> out.append(line).append('\n'));
        if (!subscribers.isEmpty()) {
            out.append("--subscribe: a subscriber in the bench's JVM follows each mvsink run's shard from its "
                + "first append; lag = from a seal's commit (first readable) to its delivery\n");
            out.append(SubscriberFigures.format(subscribers)).append('\n');
        }
        out.append("targets (").append(workload.label()).append("):\n");
        CatchUpTargets.check(figures, options).forEach(c -> out.append(c).append('\n'));
        subscribers.forEach(s -> out.append(s.targetLine()).append('\n'));
        return out.toString();
    }

    /**
     * Per mvsink run, the late updates it counted against those sent late, and the records it
     * dead-lettered (0 expected: a late update is advanced, never dead-lettered). A run may count
     * more than were sent (an exactly-once task that re-reads its input after a rebalance counts
     * again), never fewer; the snapshot check is what shows that none was lost.
     */
    List<String> lateLines() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "late updates: %d sent below their partition's frontier (the sink advances "
            + "them to the next open interval; the model counts them)", lateSent));
        for (CatchUpFigures f : figures) {
            if (f.isMvsink()) {
                long late = counter(f, LATE_COUNTER);
                long dead = counter(f, DEAD_LETTER_COUNTER);
                lines.add(String.format(Locale.ROOT, "  %-22s counted late %s (%s), dead-lettered %s (%s)", f.name(),
                    count(late), lateVerdict(late), count(dead), dead == 0 ? "as expected" : dead < 0 ? "n/a" : "EXPECTED 0"));
            }
        }
        return lines;
    }

    private String lateVerdict(long counted) {
        if (counted < 0) {
            return "n/a: JMX not read";
        }
        if (counted == lateSent) {
            return "as sent";
        }
        return counted > lateSent ? "more than sent: input re-read after a rebalance" : "FEWER than sent";
    }

    private static String count(long n) {
        return n < 0 ? "-" : Long.toString(n);
    }

    /** The mvsink run's counter {@code name} as read over JMX just before it stopped; -1 if not read. */
    static long counter(CatchUpFigures f, String name) {
        return f.jmx().get(name) instanceof Number n ? n.longValue() : -1;
    }

    /** The workload's part of the JSON: runs, ratios, targets, late updates, subscribers. */
    Map<String, Object> toMap(CatchUpOptions options) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("workload", workload.label());
        doc.put("runs", figures.stream().map(CatchUpFigures::toMap).toList());
        if (!subscribers.isEmpty()) {
            doc.put("subscribers", subscribers.stream().map(SubscriberFigures::toMap).toList());
        }
        doc.put("late_updates_sent", lateSent);
        doc.put("ratios", CatchUpRatios.of(figures, options));
        doc.put("targets", CatchUpTargets.check(figures, options).stream().map(c -> Map.of(
            "target", c.target(), "measured", c.measured(), "verdict", c.verdict().name().toLowerCase(Locale.ROOT)))
            .toList());
        return doc;
    }
}
