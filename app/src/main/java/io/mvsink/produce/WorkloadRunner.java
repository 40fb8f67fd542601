package io.mvsink.produce;

import java.util.function.Consumer;
import org.apache.kafka.common.utils.Time;

/**
 * Drives a {@link Workload} into a {@link CorrectionSink} at a steady rate: updates carry
 * the current time (never going backwards), and every {@code progressEveryMs} a progress record
 * with the current time goes to every partition. {@link #sealThrough(long)} ends the run with a
 * progress record at the grid point above the last update, so that everything sent can seal.
 */
public final class WorkloadRunner {
    private final CorrectionSink producer;
    private final Workload workload;
    private final Time time;
    private long lastTime;
    private long sent;

    public WorkloadRunner(CorrectionSink producer, Workload workload, Time time) {
        this.producer = producer;
        this.workload = workload;
        this.time = time;
    }

    /**
     * Sends {@code ratePerSecond} updates per second until {@code maxUpdates} are sent or
     * {@code durationMs} passes, calling {@code onSecond} with the count this call sent about once
     * a second; returns the count this call sent. A runner can run several times in a row.
     */
    public long run(double ratePerSecond, long durationMs, long maxUpdates, long progressEveryMs, Consumer<Long> onSecond) {
        long start = time.milliseconds();
        long before = sent;
        long nextProgress = start + progressEveryMs;
        long nextReport = start + 1000;
        while (sent - before < maxUpdates) {
            long now = time.milliseconds();
            if (now - start >= durationMs) {
                break;
            }
            long due = before + Math.min(maxUpdates, (long) ((now - start + 1) * ratePerSecond / 1000.0));
            while (sent < due) {
                send(now);
            }
            if (now >= nextProgress) {
                producer.progress(now());
                nextProgress = now + progressEveryMs;
            }
            if (now >= nextReport) {
                onSecond.accept(sent - before);
                nextReport += 1000;
            }
            time.sleep(5);
        }
        producer.flush();
        return sent - before;
    }

    /** Sends one update now. */
    public void send(long now) {
        Workload.Correction c = workload.next();
        producer.update(c.key(), c.row(), timeAtLeast(now), c.diff());
        sent++;
    }

    /** Sends progress at the first grid point above every update sent; returns that upper. */
    public long sealThrough(long intervalMs) {
        long upper = Math.max(now(), (lastTime / intervalMs + 1) * intervalMs);
        producer.progress(upper);
        producer.flush();
        lastTime = upper;
        return upper;
    }

    public long sent() {
        return sent;
    }

    private long now() {
        return timeAtLeast(time.milliseconds());
    }

    private long timeAtLeast(long now) {
        lastTime = Math.max(lastTime, now);
        return lastTime;
    }
}
