package io.mvsink.bench;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@link SubscriberProbe} measured while following one run's shard. A seal's <b>lag</b> is
 * the time from when it was sealed (when its append could first be read from the consensus topic,
 * i.e. its transaction had committed) to the subscriber's delivery of a token at or above its
 * upper; it is given in ms and in batch intervals. The lag <b>from the append</b> counts from the
 * state diff's {@code appendedAtMs} (the appender's clock, before its transaction commits) instead,
 * so it adds the sink's own commit delay. {@code changes} are what the subscriber delivered
 * (consolidated per row and time), per second over the span from its first to its last delivery.
 *
 * <p>While catching up, the subscriber is held to issue 23's targets: it delivers the sealed updates at least at the
 * rate the sink sealed them, each over its own span (the updates of every seal, from the first seal's commit to the
 * last's, and from the first seal's delivery to the last's), and its lag p99 stays within
 * {@link #CATCH_UP_LAG_P99_MS}.
 *
 * @param phase          "steady" (the steady bench: a producer at a steady rate) or "catch-up"
 * @param seals          seals appended (compactions left out)
 * @param undelivered    seals the subscriber had not delivered when it stopped
 * @param fromAppendP50Ms the lags from the append, p50
 * @param fromAppendMaxMs the lags from the append, max
 * @param lagsMs         each delivered seal's lag, in seal order (in the JSON, to see how it moved)
 * @param sealedUpdates  the updates the seals added (their batches' counts)
 * @param sealingSeconds from the first seal's commit to the last's
 * @param deliverySeconds from the first seal's delivery to the last's (NaN unless every seal was delivered)
 */
record SubscriberFigures(String run, String phase, long intervalMs, long seals, long undelivered, long changes,
                         double seconds, long lagP50Ms, long lagP99Ms, long lagMaxMs, long fromAppendP50Ms,
                         long fromAppendMaxMs, boolean sumEqualsModel, String failure, List<Long> lagsMs,
                         long sealedUpdates, double sealingSeconds, double deliverySeconds) {
    /** The target: at a steady rate, a subscriber stays within this many batch intervals of the sealed upper. */
    static final double TARGET_INTERVALS = 2;
    /** Issue 23's target: while the sink catches up, the lag p99 from a seal's commit to its delivery. */
    static final long CATCH_UP_LAG_P99_MS = 2000;

    /**
     * The figures of {@code deliveries}, against the shard's {@code diffs} and the wall-clock ms when each seal
     * (by seqno) could first be read, {@code sealedAtMs} (a seal missing there counts from its append).
     */
    static SubscriberFigures of(String run, String phase, long intervalMs, List<SubscriberProbe.Delivery> deliveries,
                                List<StateDiff> diffs, Map<Long, Long> sealedAtMs, boolean sumEqualsModel,
                                Exception failure) {
        List<Long> lags = new ArrayList<>();
        List<Long> fromAppend = new ArrayList<>();
        long seals = 0;
        long undelivered = 0;
        long upper = 0;
        int next = 0;
        long sealedUpdates = 0;
        long[] sealedSpan = {Long.MAX_VALUE, Long.MIN_VALUE};
        long[] deliveredSpan = {Long.MAX_VALUE, Long.MIN_VALUE};
        for (StateDiff diff : diffs) {
            if (ShardState.isCompaction(diff) || diff.getUpper() <= upper) {
                continue;
            }
            upper = diff.getUpper();
            seals++;
            sealedUpdates += diff.getAdded().stream().mapToLong(Batch::getUpdates).sum();
            long sealedAt = sealedAtMs.getOrDefault(diff.getSeqno(), diff.getAppendedAtMs());
            widen(sealedSpan, sealedAt);
            while (next < deliveries.size() && deliveries.get(next).upper() < upper) {
                next++;
            }
            if (next == deliveries.size()) {
                undelivered++;
            } else {
                long delivered = deliveries.get(next).deliveredAtMs();
                widen(deliveredSpan, delivered);
                lags.add(Math.max(0, delivered - sealedAt));
                fromAppend.add(Math.max(0, delivered - diff.getAppendedAtMs()));
            }
        }
        long[] sorted = lags.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] sortedFromAppend = fromAppend.stream().mapToLong(Long::longValue).sorted().toArray();
        long changes = deliveries.stream().mapToLong(SubscriberProbe.Delivery::changes).sum();
        double seconds = deliveries.size() < 2 ? 0
            : (deliveries.get(deliveries.size() - 1).deliveredAtMs() - deliveries.get(0).deliveredAtMs()) / 1000.0;
        return new SubscriberFigures(run, phase, intervalMs, seals, undelivered, changes, seconds,
            percentile(sorted, 50), percentile(sorted, 99), percentile(sorted, 100),
            percentile(sortedFromAppend, 50), percentile(sortedFromAppend, 100),
            sumEqualsModel, failure == null ? null : failure.toString(), List.copyOf(lags), sealedUpdates,
            span(sealedSpan), undelivered > 0 ? Double.NaN : span(deliveredSpan));
    }

    private static void widen(long[] span, long atMs) {
        span[0] = Math.min(span[0], atMs);
        span[1] = Math.max(span[1], atMs);
    }

    private static double span(long[] span) {
        return span[0] > span[1] ? Double.NaN : (span[1] - span[0]) / 1000.0;
    }

    /** The nearest-rank {@code p}-th percentile of {@code sorted}; 0 when empty. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    double changesPerSecond() {
        return seconds > 0 ? changes / seconds : Double.NaN;
    }

    /** The sink's updates sealed per second, from its first seal's commit to its last's. */
    double sealingPerSecond() {
        return sealingSeconds > 0 ? sealedUpdates / sealingSeconds : Double.NaN;
    }

    /** The sealed updates the subscriber delivered per second, from its first seal's delivery to its last's. */
    double deliveredPerSecond() {
        return deliverySeconds > 0 ? sealedUpdates / deliverySeconds : Double.NaN;
    }

    double lagMaxIntervals() {
        return (double) lagMaxMs / intervalMs;
    }

    boolean steady() {
        return phase.equals("steady");
    }

    /** Kept up: every seal delivered, and at a steady rate, the max lag under the target. */
    boolean keptUp() {
        return failure == null && undelivered == 0 && (!steady() || lagMaxMs < TARGET_INTERVALS * intervalMs);
    }

    /** The table: one row per run. */
    static String format(List<SubscriberFigures> figures) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
            "%-26s %-9s %6s %9s %10s %8s %8s %8s %9s %20s %s%n", "subscriber of run", "phase", "seals", "changes",
            "changes/s", "lag p50", "lag p99", "lag max", "max/intvl", "from append p50/max", "sum = model"));
        for (SubscriberFigures f : figures) {
            out.append(String.format(Locale.ROOT, "%-26s %-9s %6d %9d %10.0f %5d ms %5d ms %5d ms %9.2f %20s %s%n",
                f.run, f.phase, f.seals, f.changes, f.changesPerSecond(), f.lagP50Ms, f.lagP99Ms, f.lagMaxMs,
                f.lagMaxIntervals(), f.fromAppendP50Ms + " / " + f.fromAppendMaxMs + " ms",
                f.failure != null ? "FAILED: " + f.failure : f.sumEqualsModel ? "yes" : "NO"));
        }
        return out.toString();
    }

    /** The target line of this run: checked at a steady rate, figures only while catching up. */
    String targetLine() {
        String measured = String.format(Locale.ROOT, "lag max %d ms = %.2f intervals, p99 %d ms, p50 %d ms "
            + "(from the append: max %d ms, p50 %d ms); %d of %d seals delivered; %.0f changes/s", lagMaxMs,
            lagMaxIntervals(), lagP99Ms, lagP50Ms, fromAppendMaxMs, fromAppendP50Ms, seals - undelivered, seals,
            changesPerSecond());
        if (!steady()) {
            double ratio = deliveredPerSecond() / sealingPerSecond();
            return String.format(Locale.ROOT, "  [%s] %s: a subscriber keeps up with a catch-up: it delivers the sealed "
                + "updates at >= the rate the sink sealed them (issue 23): %.0f vs %.0f updates/s = %.2fx%n"
                + "  [%s] %s: a subscriber's lag from a seal's commit to its delivery p99 <= %d ms while catching up "
                + "(issue 23): %s", ratio >= 1 ? "met " : "MISS", run, deliveredPerSecond(), sealingPerSecond(),
                ratio, failure == null && undelivered == 0 && lagP99Ms <= CATCH_UP_LAG_P99_MS ? "met " : "MISS", run,
                CATCH_UP_LAG_P99_MS, measured);
        }
        return String.format(Locale.ROOT, "  [%s] %s: a subscriber keeps up with the sink: its lag behind the sealed "
            + "upper stays under %.0f batch intervals (%d ms) at a steady rate: %s", keptUp() ? "met " : "MISS", run,
            TARGET_INTERVALS, (long) (TARGET_INTERVALS * intervalMs), measured);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run", run);
        m.put("phase", phase);
        m.put("interval_ms", intervalMs);
        m.put("seals", seals);
        m.put("undelivered_seals", undelivered);
        m.put("changes_delivered", changes);
        m.put("changes_per_second", CatchUpFigures.json(changesPerSecond()));
        m.put("lag_p50_ms", lagP50Ms);
        m.put("lag_p99_ms", lagP99Ms);
        m.put("lag_max_ms", lagMaxMs);
        m.put("lag_max_intervals", lagMaxIntervals());
        m.put("lag_from_append_p50_ms", fromAppendP50Ms);
        m.put("lag_from_append_max_ms", fromAppendMaxMs);
        m.put("kept_up", keptUp());
        m.put("sum_equals_model", sumEqualsModel);
        m.put("failure", failure);
        m.put("lags_ms", lagsMs);
        m.put("sealed_updates", sealedUpdates);
        m.put("sealing_updates_per_second", CatchUpFigures.json(sealingPerSecond()));
        m.put("delivered_updates_per_second", CatchUpFigures.json(deliveredPerSecond()));
        return m;
    }
}
