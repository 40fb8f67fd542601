package io.mvsink.protocol;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.Update;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A task's side of the protocol against a real coalescer: a large range is handed over in chunks
 * (never read whole into the heap), under back-pressure too, and the batch holds all of it.
 */
class ContributorTest {
    private static final long W = 1000;
    private static final Contributor.Start NOTHING_SEALED = new Contributor.Start(0, 0);
    private static final int UPDATES = 600;

    private final MockTime time = new MockTime();
    private final ShardMetrics metrics = new ShardMetrics("s");
    private final GatedBlobStore blobs = new GatedBlobStore();
    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final int schemaId = schemas.register("s-value", Workload.ROW_SCHEMA);
    private final List<Update> buffered = new ArrayList<>();
    /** The updates of each read, as the contributor asked for them. */
    private final List<Integer> reads = new ArrayList<>();
    /** The lower of each range read. */
    private final List<Long> readLowers = new ArrayList<>();
    private final List<Batch> reported = new ArrayList<>();
    private BatchCoalescer coalescer;

    @AfterEach
    void stop() {
        blobs.release();
        coalescer.close();
    }

    /** A task of shard "s" on the grid of {@code W} that contributes again after a minute unsealed. */
    private Contributor task(int partition, Contributor.Start start) {
        return new Contributor(coalescer, "s", partition, new Grid(W), Duration.ofMinutes(1), time, metrics,
            BufferedBytes.NONE, start);
    }

    @Test
    void shouldHandALargeRangeOverInChunksOfTheRegistrysSize() {
        start(8_192); // chunks of 1 KiB
        for (int i = 0; i < UPDATES; i++) {
            buffered.add(TestUpdates.update(schemaId, TestUpdates.row(i, "category-" + i % 5, i), i % W, 1));
        }
        Contributor task = task(0, NOTHING_SEALED);

        task.contribute(0, W, this::read);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
            return !reported.isEmpty();
        });

        assertTrue(reads.size() > 10, "read in chunks, not whole: " + reads);
        long biggest = reads.stream().mapToLong(Integer::longValue).max().orElseThrow();
        assertTrue(biggest * 25 < 2 * coalescer.chunkBytes(), "no chunk much over the coalescer's chunk size: " + reads);
        assertEquals(UPDATES, reads.stream().mapToInt(Integer::intValue).sum());
        assertEquals(1, reported.size());
        assertEquals(UPDATES, reported.get(0).getUpdates());
        assertEquals(UPDATES, reported.get(0).getContributions().get(0).getUpdates());
    }

    @Test
    void shouldStopAtAFullQueueMidRangeAndHandOverTheRestLater() {
        start(4_096); // chunks of 1 KiB, a queue of about four
        for (int i = 0; i < UPDATES; i++) {
            buffered.add(TestUpdates.update(schemaId, TestUpdates.row(i, "c", i), i % W, 1));
        }
        Contributor task = task(0, NOTHING_SEALED);
        blobs.hold(); // the builder stops at its first part write: the queue fills

        task.contribute(0, W, this::read);
        int readsWhileHeld = reads.size();
        assertTrue(readsWhileHeld < 10, "the task stops handing over at the queue's bound: " + reads);
        assertTrue(coalescer.queuedBytes() <= 4_096 + 2 * coalescer.chunkBytes(), "queued: " + coalescer.queuedBytes());

        blobs.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            task.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
            return !reported.isEmpty();
        });
        assertEquals(UPDATES, reported.get(0).getUpdates(), "the rest was handed over once the queue drained");
    }

    @Test
    void shouldNotReadARangeFromItsBufferWhileTheQueueIsFull() {
        start(4_096);
        for (int i = 0; i < UPDATES; i++) {
            buffered.add(TestUpdates.update(schemaId, TestUpdates.row(i, "c", i), i % W, 1));
        }
        Contributor filling = task(0, NOTHING_SEALED);
        Contributor waiting = task(1, NOTHING_SEALED);
        blobs.hold();
        filling.contribute(0, W, this::read);
        waiting.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
        int readsBefore = reads.size();

        for (int tick = 0; tick < 5; tick++) {
            waiting.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
            filling.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
        }

        assertEquals(readsBefore, reads.size(),
            "issue 12 item 12: while the queue is full, no tick reads a range again (a refused chunk is kept)");
        blobs.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            waiting.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
            filling.tick(0, W, this::read, (report, upper) -> reported.add(report.batch()));
            return reported.size() == 2;
        });
        assertEquals(2 * UPDATES, reads.stream().mapToInt(Integer::intValue).sum(), "every update read once");
    }

    /**
     * Issue 12 item 13: a task that joins after a kill contributes everything not sealed again in
     * one-interval pieces, each a batch of its own. The tasks that stayed must get their next
     * minted range while those pieces are still being written: the minter waited for every builder
     * of the shard, so after a kill the shard sealed nothing until the last piece was in storage
     * (tens of seconds of blob writes behind a copy of 32 intervals and more).
     */
    @Test
    void shouldMintTheNextRangeForTheTasksThatStayedWhileAJoinersCopiesAreWritten() {
        startBarrier(1_000, new RangeMinter(W, 1 << 20));
        Contributor stayed = task(0, NOTHING_SEALED);
        Contributor joiner = task(1, new Contributor.Start(0, 8 * W));
        blobs.hold();
        joiner.contribute(0, 8 * W, this::read);
        assertEquals(8 * W, joiner.handedOffUpTo(), "the joiner handed off its copies");
        time.sleep(1_000);
        coalescer.tick(); // the pieces' barriers time out: eight builders of the shard are writing (held)
        await().atMost(Duration.ofSeconds(10)).until(() -> blobs.writesStarted() == 1);

        stayed.contribute(0, 8 * W, this::read);

        assertEquals(8 * W, stayed.handedOffUpTo(), "the task that stayed got [0, 8 s) minted while the copies wait");
    }

    /**
     * The same at a steady rate, where the minter mints one interval at a time: a joiner's pieces
     * then have exactly the shape of minted ranges, and only where they came from tells them apart.
     */
    @Test
    void shouldNotWaitForCopyPiecesShapedLikeMintedRanges() {
        startBarrier(1_000, new RangeMinter(W, 1 << 20));
        Contributor stayed = task(0, NOTHING_SEALED);
        for (long closed = W; closed <= 3 * W; closed += W) {
            long upTo = closed;
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                stayed.contribute(0, upTo, this::read);
                return stayed.handedOffUpTo() == upTo;
            });
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> coalescer.liveBatches() == 0 || blobs.writesStarted() >= 3);
        blobs.hold();
        Contributor joiner = task(1, new Contributor.Start(0, 3 * W));
        joiner.contribute(0, 4 * W, this::read); // pieces [0, 1 s), [1 s, 2 s), [2 s, 3 s): minted shapes, nothing sealed

        stayed.contribute(0, 4 * W, this::read);

        assertEquals(4 * W, stayed.handedOffUpTo(), "[3 s, 4 s) minted while the pieces wait at the gate");
    }

    /**
     * Issue 12 item 13: a participant of a later batch leaves while an earlier batch of this task is
     * still being written. Restarting abandons every handle in flight, the earlier one too, so the
     * task must contribute again from the earlier one: from the later batch only, nobody would
     * contribute the earlier range again until {@code recontribute.timeout.ms}.
     */
    @Test
    void shouldContributeAgainFromItsOldestBatchInFlightWhenAParticipantLeaves() {
        startBarrier(60_000, null);
        blobs.hold();
        Contributor task = task(1, NOTHING_SEALED);
        task.contribute(0, W, this::read); // [0, 1 s) alone: written, held at the gate
        Contributor leaving = task(0, new Contributor.Start(W, W));
        leaving.contribute(0, 2 * W, this::read); // a piece of [1 s, 2 s): its barrier waits for partition 1
        task.contribute(0, 2 * W, this::read); // joins it
        readLowers.clear();

        leaving.close();
        task.tick(0, 2 * W, this::read, (report, upper) -> reported.add(report.batch()));

        assertEquals(0L, readLowers.get(0), "contributes again from [0, 1 s), not from 1 s: " + readLowers);
    }

    /** A barrier coalescer (with the shard's minter, or without: null) and one buffered update. */
    private void startBarrier(long barrierTimeoutMs, RangeMinter minter) {
        coalescer = TestCoalescer.of(CoalescingMode.BARRIER).blobs(blobs).schemas(schemas).time(time).parts(1)
            .settings(s -> s.withBarrierTimeout(Duration.ofMillis(barrierTimeoutMs)))
            .shard(TestCoalescer.sink("s", metrics), minter).build();
        buffered.add(TestUpdates.update(schemaId, TestUpdates.row(1, "c", 1), 1, 1));
    }

    private void start(long maxQueuedBytes) {
        coalescer = TestCoalescer.of(CoalescingMode.NONE).blobs(blobs).schemas(schemas).time(time).parts(1)
            .settings(s -> s.withMaxQueuedBytes(maxQueuedBytes)).shard(TestCoalescer.sink("s", metrics)).build();
    }

    /** The buffer: positions are indexes into {@link #buffered}. */
    private Contributor.Chunk read(long lower, long upper, byte[] from, long maxBytes) {
        int i = from == null ? 0 : ByteBuffer.wrap(from).getInt();
        List<Update> chunk = new ArrayList<>();
        long bytes = 0;
        while (i < buffered.size() && bytes < maxBytes) {
            Update u = buffered.get(i++);
            chunk.add(u);
            bytes += u.row().length + 10;
        }
        reads.add(chunk.size());
        readLowers.add(lower);
        return new Contributor.Chunk(chunk, i < buffered.size() ? ByteBuffer.allocate(4).putInt(i).array() : null);
    }
}
