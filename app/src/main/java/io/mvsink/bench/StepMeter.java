package io.mvsink.bench;

import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.metrics.LatencyRecorder;
import io.mvsink.metrics.ShardMetrics;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Measures the steps of the max-rate bench on its in-process app: the app's counters and the
 * blob store's write counter as differences, the step's seal latencies (a listener on the shard's
 * metrics, so each step has percentiles of its own), the seal lag from the consensus topic, and
 * CPU: the bench's JVM from {@code /proc/self/stat} ({@link ProcSample}) minus the producer's
 * threads (the thread that sends, and the Kafka producer's I/O thread, found by its client id),
 * so that what is left is the app's (and the bench's bookkeeping: a progress line a second and
 * two consensus reads a step). The shard's metrics hand seal latencies to one listener: the
 * meter's takes the slot of the app's JMX sensor (its windowed {@code seal-latency-p99}), which
 * nothing reads in the bench's JVM; closing the meter empties the slot.
 */
final class StepMeter implements AutoCloseable {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final BenchRun.Live live;
    private final long producingStartMs;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long pid = ProcessHandle.current().pid();
    private final LongConsumer listener;
    private LatencyRecorder latencies = new LatencyRecorder(1 << 16);

    /** A meter for {@code live}'s app, whose producer starts sending at {@code producingStartMs} (wall clock). */
    StepMeter(BenchRun.Live live, long producingStartMs) {
        this.live = live;
        this.producingStartMs = producingStartMs;
        this.listener = ms -> recorder().record(ms);
        live.metrics().sealLatencyListener(listener);
    }

    private synchronized LatencyRecorder recorder() {
        return latencies;
    }

    /** The counters and CPU as of now; starts a new window of seal latencies. */
    synchronized Mark mark(Thread sender) {
        ShardMetrics m = live.metrics();
        LatencyRecorder window = latencies;
        latencies = new LatencyRecorder(1 << 16);
        return new Mark(System.nanoTime(), live.runner().sent(), m.updates(), m.intervalsSealed(), m.appends(),
            m.batchesAppended(), live.blobs().writeRequests(), ProcSample.of(pid, -1).cpuTicks(), producerCpuNanos(sender),
            window);
    }

    /**
     * The seal lag now: wall clock minus the shard's sealed upper, read from the consensus topic;
     * before the first seal past the start of producing, minus that start (nothing older needs sealing).
     */
    long sealLagMs() {
        long upper = ConsensusReader.read(live.client(), live.config().consensusTopic(), live.config().shard(),
            READ_TIMEOUT).upper();
        return System.currentTimeMillis() - Math.max(upper, producingStartMs);
    }

    /** What the step between {@code start} and {@code end} measured; {@code end}'s window holds its seals. */
    StepFigures figures(double rate, Mark start, Mark end, long lagStartMs, long lagEndMs) {
        LatencyRecorder seals = end.latencies();
        double cpuSeconds = (double) (end.cpuTicks() - start.cpuTicks()) / ProcSample.CLOCK_TICKS_PER_SECOND;
        double producerSeconds = (end.producerCpuNanos() - start.producerCpuNanos()) / 1e9;
        return new StepFigures(rate, (end.nanos() - start.nanos()) / 1e9, end.sent() - start.sent(),
            end.processed() - start.processed(), seals.count(), seals.percentile(50), seals.percentile(99),
            end.intervalsSealed() - start.intervalsSealed(), end.appends() - start.appends(),
            end.batchesAppended() - start.batchesAppended(), end.blobWrites() - start.blobWrites(), lagStartMs, lagEndMs,
            end.sent() - end.processed(), Math.max(0, cpuSeconds - producerSeconds), producerSeconds);
    }

    /** CPU of the sending thread and of the producer's I/O thread ({@code kafka-producer-network-thread | <id>}). */
    private long producerCpuNanos(Thread sender) {
        String id = "| " + BenchRun.producerClientId(live.config());
        long nanos = Math.max(0, threads.getThreadCpuTime(sender.getId()));
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            if (t.getKey().getName().endsWith(id)) {
                nanos += Math.max(0, threads.getThreadCpuTime(t.getKey().getId()));
            }
        }
        return nanos;
    }

    /** The counters at one moment; {@code latencies} are the seals recorded since the previous mark. */
    record Mark(long nanos, long sent, long processed, long intervalsSealed, long appends, long batchesAppended,
                long blobWrites, long cpuTicks, long producerCpuNanos, LatencyRecorder latencies) {
    }

    @Override
    public void close() {
        live.metrics().removeSealLatencyListener(listener);
    }
}
