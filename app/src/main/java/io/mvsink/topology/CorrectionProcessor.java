package io.mvsink.topology;

import io.mvsink.protocol.Grid;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.TaskProgress;
import io.mvsink.codec.Codecs;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.protocol.Contributor;
import io.mvsink.protocol.Outcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import io.mvsink.metrics.LaunchLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One per input partition (task): the Kafka Streams side of a task. Consolidates updates into the
 * correction buffer, follows the partition's frontier from progress records, trims the buffer
 * below the sealed upper, and reports the batches it owns in its transaction. Which ranges it
 * contributes, and when it contributes again, is the seal protocol's ({@link Contributor}): this
 * class only feeds it the sealed upper, the closed frontier and the buffer.
 *
 * <p>A contribution is a closed range {@code [lower, floor(frontier))} handed to the shared
 * batch coalescer, however many grid intervals it spans (a jump costs one contribution, not one
 * per cell). Nothing leaves the buffer before the consensus topic shows it sealed. The stream
 * thread never waits on a builder or a barrier.
 */
final class CorrectionProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(CorrectionProcessor.class);
    private final LaunchLog launch = new LaunchLog();

    private final SinkContext sink;
    private final Grid grid;
    private final LongSupplier mirrorWrites;
    private InputDecoder decoder;
    private ProcessorContext<byte[], byte[]> context;
    private CorrectionBuffer buffer;
    private IntervalBytes intervalBytes;
    private KeyValueStore<Integer, byte[]> progressStore;
    private SealedUpper sealed;
    private DeadLetters deadLetters;
    private Contributor contributor;
    private int partition;
    private TaskProgress progress;
    private long trimmedBelow = -1;
    /** An update came in below {@link #trimmedBelow} (a replay after a crash): the next trim scans from the start. */
    private boolean addedBelowTrim;

    /** {@code mirrorWrites}: the count of the consensus mirror's writes ({@link SealedUpper}). */
    CorrectionProcessor(SinkContext sink, LongSupplier mirrorWrites) {
        this.sink = sink;
        this.mirrorWrites = mirrorWrites;
        this.grid = new Grid(sink.intervalMs());
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.partition = context.taskId().partition();
        try (ShardLogContext.Scope scope = logContext()) {
            initTask(context);
        }
    }

    private void initTask(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.buffer = context.getStateStore(StoreNames.BUFFER);
        this.intervalBytes = new IntervalBytes(grid);
        buffer.sizes((time, size) -> intervalBytes.add(time, size + CorrectionBuffer.UPDATE_OVERHEAD));
        this.progressStore = context.getStateStore(StoreNames.PROGRESS);
        this.sealed = new SealedUpper(context.getStateStore(StoreNames.CONSENSUS), sink.shard(), mirrorWrites);
        this.deadLetters = new DeadLetters(context, sink.metrics(), sink.recordBytes());
        this.decoder = new InputDecoder(sink.registry(), sink.subject(), sink.maxRowBytes(), sink.recordBytes(),
            new AcceptedSchemas(context.getStateStore(StoreNames.SCHEMA_DECISIONS)), sink.time());
        byte[] stored = progressStore.get(partition);
        this.progress = stored == null ? new TaskProgress(0L, 0L, 0L) : Codecs.TASK_PROGRESS.decode(stored);
        this.contributor = new Contributor(sink.batches(), sink.shard(), partition, grid, sink.recontribute(),
            sink.time(), sink.metrics(), intervalBytes,
            new Contributor.Start(sealed.get(), grid.floor(progress.getFrontier())));
        context.schedule(Duration.ofMillis(sink.punctuateMs()), PunctuationType.WALL_CLOCK_TIME, now -> {
            try (ShardLogContext.Scope scope = logContext()) {
                tick();
            }
        });
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        try (ShardLogContext.Scope scope = logContext()) {
            processRecord(record);
        }
    }

    private void processRecord(Record<byte[], byte[]> record) {
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
            LOG.debug("late update at {} advanced to frontier {}", update.time(), time);
        }
        if (time < trimmedBelow) {
            // a replay after a crash: the consensus topic showed the shard sealed past it before this
            // task replayed it; sealed, so the next trim removes it
            addedBelowTrim = true;
        }
        buffer.add(time, update.schemaId(), update.row(), update.diff());
        intervalBytes.add(time, update.row().length + CorrectionBuffer.UPDATE_OVERHEAD);
        sink.metrics().update();
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

    private void contribute() {
        contributor.contribute(sealed.get(), grid.floor(progress.getFrontier()), buffer::read);
    }

    private void tick() {
        contributor.tick(sealed.get(), grid.floor(progress.getFrontier()), buffer::read, this::report);
        trim();
        sink.metrics().bufferEntries(partition, buffer.approximateEntries());
        sink.metrics().bufferBytes(partition, intervalBytes.between(Long.MIN_VALUE, Long.MAX_VALUE));
    }

    /** Reports a batch this task owns: the appender seals it in this task's transaction. */
    private void report(Outcome.Report report, long upper) {
        launch.first("first report sent by task {}: [{}, {})", context.taskId(), report.batch().getLower(), report.batch().getUpper());
        context.forward(new Record<>(sink.shard().getBytes(StandardCharsets.UTF_8),
            Codecs.REPORT.encode(new BatchReport(report.batch(), context.taskId().toString(), report.firstWriteAtMs())),
            sink.time().milliseconds()), StoreNames.REPORTS_SINK);
        progress.setReportedUpTo(upper);
        saveProgress();
        // the appender sees the report once this transaction commits: ask for it now, not at the commit interval
        context.commit();
    }

    private void trim() {
        long upper = Math.max(sealed.get(), trimmedBelow);
        if (upper > trimmedBelow || addedBelowTrim) {
            // below an earlier trim only replayed updates come back (updates arrive at or above the
            // frontier, which a restored task may hold below the sealed upper): scan from the start then
            int removed = buffer.trimBelow(trimmedBelow < 0 || addedBelowTrim ? Long.MIN_VALUE : trimmedBelow, upper);
            intervalBytes.trimBelow(grid.floor(upper));
            trimmedBelow = upper;
            addedBelowTrim = false;
            LOG.debug("trimmed {} entries below sealed upper {}", removed, upper);
        }
    }

    /** The shard and this task's partition in the MDC: every line of the task's work names both. */
    private ShardLogContext.Scope logContext() {
        return ShardLogContext.enter(sink.shard(), partition);
    }

    private void saveProgress() {
        progressStore.put(partition, Codecs.TASK_PROGRESS.encode(progress));
    }

    @Override
    public void close() {
        try (ShardLogContext.Scope scope = logContext()) {
            contributor.close();
            sink.metrics().bufferClosed(partition);
        }
    }
}
