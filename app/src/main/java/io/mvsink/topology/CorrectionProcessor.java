package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.TaskProgress;
import io.mvsink.batch.ContributionData;
import io.mvsink.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One per input partition (task). Consolidates updates into the correction buffer, follows the
 * partition's frontier from progress records, and when the frontier passes a grid point hands
 * the closed range {@code [lower, floor(frontier))} to the batch builder as one contribution,
 * however many grid intervals it spans (a jump costs one contribution, not one per cell).
 *
 * <p>Finished batches are reported from this task's own stream thread, in range order, inside
 * its transaction, together with the new {@code reportedUpTo}; a contribution whose batch failed
 * or was never reported (crash, move) is made again from the buffer, which still holds it:
 * entries leave the buffer only when the consensus topic shows them sealed. The stream thread
 * never waits: it polls the builder's futures on a wall-clock punctuation.
 */
final class CorrectionProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(CorrectionProcessor.class);

    private final SinkContext sink;
    private final Grid grid;
    private final InputDecoder decoder;
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private ProcessorContext<byte[], byte[]> context;
    private CorrectionBuffer buffer;
    private KeyValueStore<Integer, byte[]> progressStore;
    private SealedUpper sealed;
    private DeadLetters deadLetters;
    private int partition;
    private TaskProgress progress;
    private long handedOffUpTo;
    private long trimmedBelow = -1;

    /** A contribution handed to the builder whose batch is not yet reported. */
    private record InFlight(long lower, long upper, CompletableFuture<Batch> batch) {
    }

    CorrectionProcessor(SinkContext sink) {
        this.sink = sink;
        this.grid = new Grid(sink.intervalMs());
        this.decoder = new InputDecoder(sink.registry(), sink.subject());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> bufferStore = context.getStateStore(StoreNames.BUFFER);
        this.buffer = new CorrectionBuffer(bufferStore);
        this.progressStore = context.getStateStore(StoreNames.PROGRESS);
        this.sealed = new SealedUpper(context.getStateStore(StoreNames.CONSENSUS), sink.shard());
        this.deadLetters = new DeadLetters(context, sink.metrics());
        this.partition = context.taskId().partition();
        byte[] stored = progressStore.get(partition);
        this.progress = stored == null ? new TaskProgress(0L, 0L, 0L) : Codecs.TASK_PROGRESS.decode(stored);
        this.handedOffUpTo = progress.getReportedUpTo();
        context.schedule(Duration.ofMillis(sink.punctuateMs()), PunctuationType.WALL_CLOCK_TIME, now -> tick());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Decoded decoded = decoder.decode(record.value(), record.timestamp(), record.headers());
        if (decoded instanceof Decoded.UpdateRecord update) {
            addUpdate(record, update);
        } else if (decoded instanceof Decoded.Progress p) {
            advance(record, p.upper());
        } else if (decoded instanceof Decoded.Bad bad) {
            deadLetters.send(record, bad.reason(), bad.detail());
        }
    }

    private void addUpdate(Record<byte[], byte[]> record, Decoded.UpdateRecord update) {
        long time = update.time();
        if (time < progress.getFrontier()) {
            time = progress.getFrontier();
            progress.setLateUpdates(progress.getLateUpdates() + 1);
            saveProgress();
            sink.metrics().lateUpdate();
            LOG.debug("shard {} partition {}: late update at {} advanced to frontier {}",
                sink.shard(), partition, update.time(), time);
        }
        try {
            buffer.add(time, update.schemaId(), update.row(), update.diff());
            sink.metrics().update();
        } catch (ArithmeticException overflow) {
            deadLetters.send(record, DeadLetterReason.DIFF_OVERFLOW, "the row's summed diff overflows a long");
        }
    }

    private void advance(Record<byte[], byte[]> record, long upper) {
        if (upper < progress.getFrontier()) {
            deadLetters.send(record, DeadLetterReason.FRONTIER_REGRESSED,
                "upper " + upper + " is below the partition's frontier " + progress.getFrontier());
            return;
        }
        if (upper > progress.getFrontier()) {
            progress.setFrontier(upper);
            saveProgress();
            contribute();
        }
    }

    /** Hands the closed, not yet handed-off range to the builder, if the builder takes it. */
    private void contribute() {
        long lower = Math.max(handedOffUpTo, sealed.get());
        long upper = grid.floor(progress.getFrontier());
        if (upper <= lower) {
            return;
        }
        ContributionData data = new ContributionData(sink.shard(), partition, lower, upper,
            buffer.range(lower, upper), sink.time().milliseconds());
        Optional<CompletableFuture<Batch>> batch = sink.builder().offer(data);
        if (batch.isPresent()) {
            inFlight.addLast(new InFlight(lower, upper, batch.get()));
            handedOffUpTo = upper;
            sink.metrics().contributed();
        }
    }

    private void tick() {
        reportFinished();
        contribute();
        trim();
    }

    /** Reports finished batches in range order; on a failed batch, contributes everything again. */
    private void reportFinished() {
        while (!inFlight.isEmpty() && inFlight.peekFirst().batch().isDone()) {
            InFlight head = inFlight.pollFirst();
            Batch batch;
            try {
                batch = head.batch().join();
            } catch (RuntimeException failed) {
                LOG.warn("shard {} partition {}: batch for [{}, {}) failed, contributing again: {}",
                    sink.shard(), partition, head.lower(), head.upper(), failed.getMessage());
                sink.metrics().recontributed();
                inFlight.clear();
                handedOffUpTo = progress.getReportedUpTo();
                return;
            }
            BatchReport report = new BatchReport(batch, context.taskId().toString());
            context.forward(new Record<>(sink.shard().getBytes(StandardCharsets.UTF_8),
                Codecs.REPORT.encode(report), sink.time().milliseconds()), StoreNames.REPORTS_SINK);
            progress.setReportedUpTo(head.upper());
            saveProgress();
        }
    }

    private void trim() {
        long upper = sealed.get();
        if (upper > trimmedBelow) {
            int removed = buffer.trimBelow(upper);
            trimmedBelow = upper;
            LOG.debug("shard {} partition {}: trimmed {} entries below sealed upper {}",
                sink.shard(), partition, removed, upper);
        }
    }

    private void saveProgress() {
        progressStore.put(partition, Codecs.TASK_PROGRESS.encode(progress));
    }

    @Override
    public void close() {
        if (!inFlight.isEmpty()) {
            LOG.info("shard {} partition {}: closing with {} unreported batches; the next owner contributes again",
                sink.shard(), partition, inFlight.size());
        }
    }
}
