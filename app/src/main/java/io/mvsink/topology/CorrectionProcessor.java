package io.mvsink.topology;

import io.mvsink.avro.BatchReport;
import io.mvsink.avro.TaskProgress;
import io.mvsink.batch.ContributionData;
import io.mvsink.batch.Handle;
import io.mvsink.batch.Outcome;
import io.mvsink.codec.Codecs;
import io.mvsink.protocol.Range;
import io.mvsink.protocol.RangeMinter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
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
 * the closed range {@code [lower, floor(frontier))} to the shared batch registry as one
 * contribution, however many grid intervals it spans (a jump costs one contribution, not one
 * per cell).
 *
 * <p>The task polls its handles in range order on a wall-clock punctuation, from its own stream
 * thread: a batch it owns it reports inside its transaction; a batch another participant owns
 * needs nothing more; a failed batch is contributed again. Nothing leaves the buffer before the
 * consensus topic shows it sealed, so the task can always contribute again: on (re)init it
 * contributes everything above the sealed upper, and a contribution not sealed within
 * {@code recontribute.timeout.ms} is contributed again (its batch may have been lost with
 * another task's aborted transaction). Duplicates are harmless: the appender's exact cover uses
 * one copy. The stream thread never waits on a builder or a barrier.
 */
final class CorrectionProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(CorrectionProcessor.class);
    /** At most this many grid intervals of a copy are contributed one by one (see {@link #pieceEnd}). */
    static final int COPY_PIECES = 64;
    /** Intervals past its committed frontier that a killed previous owner may have contributed. */
    static final int COPY_MARGIN = 32;
    /** What an update adds to a part besides its row: time and diff (as {@code ContributionData} counts). */
    private static final int UPDATE_OVERHEAD = 10;

    private final SinkContext sink;
    private final Grid grid;
    private InputDecoder decoder;
    private final Deque<Handle> inFlight = new ArrayDeque<>();
    private final Deque<long[]> unsealed = new ArrayDeque<>();
    private ProcessorContext<byte[], byte[]> context;
    private CorrectionBuffer buffer;
    private IntervalBytes intervalBytes;
    private KeyValueStore<Integer, byte[]> progressStore;
    private SealedUpper sealed;
    private DeadLetters deadLetters;
    private int partition;
    private TaskProgress progress;
    private long handedOffUpTo;
    /** Ranges in [copiesFrom, copiesBelow) may have been contributed before: contribute them in pieces. */
    private long copiesFrom;
    private long copiesBelow;
    private long trimmedBelow = -1;

    CorrectionProcessor(SinkContext sink) {
        this.sink = sink;
        this.grid = new Grid(sink.intervalMs());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        KeyValueStore<Bytes, byte[]> bufferStore = context.getStateStore(StoreNames.BUFFER);
        this.buffer = new CorrectionBuffer(bufferStore);
        this.intervalBytes = new IntervalBytes(grid);
        buffer.sizes((time, size) -> intervalBytes.add(time, size + UPDATE_OVERHEAD));
        this.progressStore = context.getStateStore(StoreNames.PROGRESS);
        this.sealed = new SealedUpper(context.getStateStore(StoreNames.CONSENSUS), sink.shard());
        this.deadLetters = new DeadLetters(context, sink.metrics());
        this.decoder = new InputDecoder(sink.registry(), sink.subject(), sink.maxRowBytes(),
            new AcceptedSchemas(context.getStateStore(StoreNames.SCHEMA_DECISIONS)), sink.time());
        this.partition = context.taskId().partition();
        byte[] stored = progressStore.get(partition);
        this.progress = stored == null ? new TaskProgress(0L, 0L, 0L) : Codecs.TASK_PROGRESS.decode(stored);
        // contribute again everything not sealed, in pieces (pieceEnd): what this task handed off
        // before is not tracked any more, and whoever held it may be gone
        this.handedOffUpTo = sealed.get();
        // a killed previous owner may have contributed past the frontier it committed
        long frontier = grid.floor(progress.getFrontier());
        copiesIn(handedOffUpTo, handedOffUpTo == 0 ? frontier
            : Math.max(frontier, handedOffUpTo) + COPY_MARGIN * grid.width());
        sink.batches().register(sink.shard(), partition, intervalBytes);
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
            intervalBytes.add(time, update.row().length + UPDATE_OVERHEAD);
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

    /**
     * Hands the closed, not yet handed-off ranges to the registry, as far as the registry takes
     * them: the shard's minted ranges (the same ranges every local task contributes), or, where
     * this task's earlier contributions may have other boundaries, one grid interval at a time
     * (see {@link #pieceEnd}).
     */
    private void contribute() {
        long sealedUpper = sealed.get();
        long lower = Math.max(handedOffUpTo, sealedUpper);
        long closed = grid.floor(progress.getFrontier());
        while (sink.batches().accepting()) {
            Range next = lower < copiesBelow && lower < closed
                ? new Range(lower, pieceEnd(lower, closed))
                : sink.batches().nextRange(sink.shard(), new RangeMinter.Ask(partition, sealedUpper, lower, closed))
                    .orElse(null);
            if (next == null || next.upper() > closed || !offer(next.lower(), next.upper())) {
                return;
            }
            lower = next.upper();
        }
    }

    /**
     * Where the contribution from {@code lower} ends. A range in {@code [copiesFrom, copiesBelow)}
     * may have been contributed before, by this task or by the partition's previous owner, with
     * other boundaries, and those copies may sit in batches shared with other partitions that still
     * need them. A copy that spans such a boundary can never be combined with them in an exact
     * cover, so the appender could wait forever. There, contributions are therefore cut at every
     * grid point: earlier boundaries are always grid points, so the pieces fit them.
     */
    private long pieceEnd(long lower, long upper) {
        if (lower < copiesFrom) {
            return Math.min(upper, copiesFrom);
        }
        return lower < copiesBelow ? Math.min(upper, lower + grid.width()) : upper;
    }

    /**
     * Sets where contributions are cut into pieces: from {@code from} (where contributing again
     * starts: an earlier copy may have a gap there) to {@code below} (where earlier copies may
     * end), at most {@link #COPY_PIECES} intervals, which bounds the cost of a round after a long
     * stall (a later round starts higher). While the shard has sealed nothing, earlier copies all
     * start at 0 and their boundaries lie near the frontier, so the pieces are the last intervals
     * below {@code below}.
     */
    private void copiesIn(long from, long below) {
        long most = COPY_PIECES * grid.width();
        copiesFrom = from == 0 ? Math.max(0, below - most) : from;
        copiesBelow = Math.min(below, copiesFrom + most);
    }

    /** Offers {@code [lower, upper)}; false if the registry refused it (back-pressure). */
    private boolean offer(long lower, long upper) {
        long now = sink.time().milliseconds();
        ContributionData data = new ContributionData(sink.shard(), partition, lower, upper,
            buffer.range(lower, upper), now);
        Optional<Handle> handle = sink.batches().contribute(data);
        if (handle.isEmpty()) {
            return false;
        }
        inFlight.addLast(handle.get());
        unsealed.addLast(new long[] {upper, now});
        handedOffUpTo = upper;
        sink.metrics().contributed();
        return true;
    }

    private void tick() {
        sink.batches().tick();
        pollHandles();
        recontributeIfOwnerLeft();
        recontributeIfStuck();
        contribute();
        trim();
        sink.metrics().bufferEntries(partition, buffer.approximateEntries());
    }

    /** Answers finished handles in range order; on a failed batch, contributes everything again. */
    private void pollHandles() {
        while (!inFlight.isEmpty()) {
            Handle head = inFlight.peekFirst();
            Outcome outcome = head.poll();
            if (outcome instanceof Outcome.Pending) {
                return;
            }
            inFlight.pollFirst();
            if (outcome instanceof Outcome.Report report) {
                context.forward(new Record<>(sink.shard().getBytes(StandardCharsets.UTF_8),
                    Codecs.REPORT.encode(new BatchReport(report.batch(), context.taskId().toString(), report.firstWriteAtMs())),
                    sink.time().milliseconds()), StoreNames.REPORTS_SINK);
                progress.setReportedUpTo(head.upper());
                saveProgress();
            } else if (outcome instanceof Outcome.Failed failed) {
                LOG.warn("shard {} partition {}: batch for [{}, {}) failed, contributing again: {}",
                    sink.shard(), partition, head.lower(), head.upper(), failed.reason());
                restartFrom(head.lower());
                return;
            }
        }
    }

    /**
     * Contributes again at once when the owner of a batch holding this task's contribution left the
     * JVM before its report was known to commit (its other participants would otherwise wait for
     * {@code recontribute.timeout.ms}).
     */
    private void recontributeIfOwnerLeft() {
        long upper = sealed.get();
        sink.batches().takeRestart(sink.shard(), partition).filter(r -> r.upper() > upper).ifPresent(r -> {
            long from = Math.max(r.lower(), upper);
            if (from < handedOffUpTo) {
                LOG.info("shard {} partition {}: the owner of the batch of [{}, {}) left, contributing again from {}",
                    sink.shard(), partition, r.lower(), r.upper(), from);
                restartFrom(from);
            }
        });
    }

    /** Contributes again from the sealed upper if the oldest unsealed contribution waited too long. */
    private void recontributeIfStuck() {
        long upper = sealed.get();
        while (!unsealed.isEmpty() && unsealed.peekFirst()[0] <= upper) {
            unsealed.pollFirst();
        }
        // while a copy of the last round is still in the registry, another round would only queue behind it
        boolean copyInFlight = !inFlight.isEmpty() && inFlight.peekFirst().upper() <= copiesBelow;
        if (!copyInFlight && !unsealed.isEmpty()
            && sink.time().milliseconds() - unsealed.peekFirst()[1] >= sink.recontributeMs()) {
            LOG.info("shard {} partition {}: [{}, {}) not sealed within {} ms, contributing again",
                sink.shard(), partition, upper, handedOffUpTo, sink.recontributeMs());
            restartFrom(upper);
        }
    }

    private void restartFrom(long lower) {
        inFlight.forEach(Handle::abandon);
        inFlight.clear();
        unsealed.clear();
        copiesIn(lower, Math.max(copiesBelow, handedOffUpTo));
        handedOffUpTo = lower;
        sink.batches().rewind(sink.shard(), partition, lower);
        sink.metrics().recontributed();
    }

    private void trim() {
        long upper = sealed.get();
        if (upper > trimmedBelow) {
            // nothing below an earlier trim comes back: updates arrive at or above the frontier
            int removed = buffer.trimBelow(trimmedBelow < 0 ? Long.MIN_VALUE : trimmedBelow, upper);
            intervalBytes.trimBelow(grid.floor(upper));
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
            LOG.info("shard {} partition {}: closing with {} unanswered batches; the next owner contributes again",
                sink.shard(), partition, inFlight.size());
        }
        inFlight.forEach(Handle::abandon);
        inFlight.clear();
        unsealed.clear();
        sink.batches().deregister(sink.shard(), partition);
        sink.metrics().bufferClosed(partition);
    }
}
