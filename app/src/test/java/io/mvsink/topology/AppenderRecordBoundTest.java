package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.protocol.AppendTooLargeException;
import io.mvsink.protocol.RecordBound;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.batch.ShardSink;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardState;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.time.Duration;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every record the appender writes fits the consensus topic's record bound (issue 21 item 3), also
 * when one step of a cover holds many inline batches of a partition (ranges of different shapes):
 * inline batches are kept out of that append, contributed again (as blob parts) and sealed then.
 */
class AppenderRecordBoundTest {
    private static final int PARTITIONS = 2;
    private static final long WIDTH = 1000;
    private static final RecordBound BOUND = new RecordBound(16 * 1024);
    private static final int INLINE_BYTES = 3_000;

    private final ShardMetrics metrics = new ShardMetrics("s");
    private TopologyDriver topology;
    private final List<TestRecord<byte[], byte[]>> written = new ArrayList<>();

    @BeforeEach
    void start() {
        BatchCoalescer builder = TestCoalescer.of(CoalescingMode.NONE).shard(new ShardSink("s", "s/", "k/s", metrics))
            .build();
        SinkContext.Upkeep upkeep = SinkContext.Upkeep.DEFAULT.withMaxBatchBytes(1L << 30).withRecordBound(BOUND);
        topology = TopologyDriver.owningBatches(new SinkContext(SinkSettings.of("s", "c-value").withIntervalMs(WIDTH)
            .withPartitions(PARTITIONS).withPunctuate(Duration.ofMillis(10)).withMaxRowBytes(4096), Time.SYSTEM, metrics, builder,
            new InMemorySchemaRegistry(), upkeep));
    }

    @AfterEach
    void stop() {
        topology.close();
    }

    @Test
    void shouldNeverWriteARecordOverTheBoundWhenAStepHoldsManyInlineBatchesOfAPartition() {
        // partition 1: one blob batch for [0, 10 s); partition 0: ten inline batches of one interval each,
        // every one well within the bound, together about twice it: one step of 11 batches
        report(batch(0, 10 * WIDTH, 1));
        List<Batch> inline = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            Batch b = inline(batch(k * WIDTH, (k + 1) * WIDTH, 0), INLINE_BYTES);
            inline.add(b);
            report(b);
        }
        drain();
        assertEveryRecordFits();
        assertTrue(metrics.mismatches() > 0, "inline batches kept out of the append are rejected");

        // their contributors contribute them again (copies are written as blobs, never inline)
        Set<Long> sealedInline = new HashSet<>();
        seals().forEach(d -> d.getAdded().forEach(b -> sealedInline.add(b.getLower())));
        for (Batch b : inline) {
            report(batch(b.getLower(), b.getUpper(), 0));
        }
        drain();
        assertEveryRecordFits();
        ShardState state = new ShardState("s");
        seals().forEach(state::apply);
        assertEquals(10 * WIDTH, state.upper(), "everything sealed");
        long inlineSealed = state.batches().stream().filter(b -> ShardState.inlineBytes(b) > 0).count();
        assertTrue(inlineSealed > 0, "the inline batches that fit were sealed as they were: " + inlineSealed);
    }

    @Test
    void shouldRejectABatchWhoseOwnEntryExceedsTheBound() {
        Batch huge = inline(batch(0, WIDTH, 0, 1), BOUND.bytes() + 1);
        report(huge);
        drain();
        assertEveryRecordFits();
        assertTrue(seals().isEmpty(), "not sealed");
        assertEquals(1, metrics.mismatches());
        report(batch(0, WIDTH, 0, 1));
        drain();
        assertEquals(WIDTH, seals().get(0).getUpper(), "its copy as blob parts is sealed");
    }

    @Test
    void shouldCarryTheGarbageThatFitsAndLeaveTheRestForLaterAppends() {
        report(batch(0, WIDTH, 0, 1));
        // 60 stale batches of 10 parts with long keys: about 60 KiB of garbage, four times the bound
        Set<String> garbage = new HashSet<>();
        for (int k = 0; k < 60; k++) {
            Batch stale = batch(0, WIDTH, 0, 1);
            List<Part> parts = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String key = "s/" + "x".repeat(80) + "/" + stale.getBatchId() + "-" + i;
                parts.add(new Part(key, 1, 10L, 1L, null));
                garbage.add(key);
            }
            stale.setParts(parts);
            report(stale);
        }
        for (int k = 1; k <= 8; k++) {
            report(batch(k * WIDTH, (k + 1) * WIDTH, 0, 1));
        }
        drain();
        assertEveryRecordFits();
        assertEquals(9 * WIDTH, seals().get(seals().size() - 1).getUpper(), "every interval sealed");
        Set<String> recorded = new HashSet<>();
        seals().forEach(d -> recorded.addAll(d.getGarbageBlobs()));
        assertEquals(garbage, recorded, "every garbage blob recorded, over several appends");
    }

    @Test
    void shouldRefuseAStepTooLargeWithoutInlineDataNamingTheLimitsToRaise() {
        // 40 blob batches of partition 0 of one interval each against one of partition 1: one step
        // whose descriptions alone exceed the bound; nothing can be left out of it
        report(batch(0, 40 * WIDTH, 1));
        for (int k = 0; k < 39; k++) {
            Batch b = batch(k * WIDTH, (k + 1) * WIDTH, 0);
            List<Part> parts = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                parts.add(new Part("s/" + "y".repeat(80) + "/" + b.getBatchId() + "-" + i, 1, 10L, 1L, null));
            }
            b.setParts(parts);
            report(b);
        }
        Batch last = batch(39 * WIDTH, 40 * WIDTH, 0);
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> report(last));
        Throwable cause = e;
        while (cause != null && !(cause instanceof AppendTooLargeException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null && cause.getMessage().contains("max.message.bytes")
            && cause.getMessage().contains("max.request.size"), String.valueOf(e));
        drain();
        assertEveryRecordFits();
        assertTrue(seals().isEmpty(), "nothing sent");
    }

    private void assertEveryRecordFits() {
        for (TestRecord<byte[], byte[]> r : written) {
            int size = r.value() == null ? 0 : r.value().length;
            assertTrue(BOUND.fits(size), "record " + new String(r.key(), StandardCharsets.UTF_8) + " of " + size
                + " bytes exceeds the bound of " + BOUND.bytes());
        }
    }

    private List<StateDiff> seals() {
        List<StateDiff> diffs = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : written) {
            if (r.value() != null && ConsensusKeys.isDiff(new String(r.key(), StandardCharsets.UTF_8))) {
                diffs.add(Codecs.STATE_DIFF.decode(r.value()));
            }
        }
        return diffs;
    }

    private void report(Batch batch) {
        topology.report(batch, "test", 0L);
    }

    private void drain() {
        written.addAll(topology.consensus.readRecordsToList());
    }

    private static Batch batch(long lower, long upper, int... partitions) {
        Batch batch = Batches.batch(lower, upper, partitions);
        batch.setClosedAtMs(System.currentTimeMillis());
        return batch;
    }

    private static Batch inline(Batch batch, int bytes) {
        batch.setParts(List.of(new Part("", 1, (long) bytes, 1L, ByteBuffer.wrap(new byte[bytes]))));
        batch.setBytes((long) bytes);
        return batch;
    }
}
