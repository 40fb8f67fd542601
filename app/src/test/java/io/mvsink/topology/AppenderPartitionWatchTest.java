package io.mvsink.topology;

import io.mvsink.protocol.TestCoalescer;
import io.mvsink.protocol.PartitionCountProbe;
import io.mvsink.consensus.ConsensusKeys;
import java.nio.charset.StandardCharsets;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.batch.ShardSink;
import io.mvsink.codec.Codecs;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The appender checks the corrections topic's partition count before every seal (a fake probe
 * here): it seals while the count is the shard's, never once partitions were added, and seals
 * nothing while the count cannot be verified, trying again at its next punctuation (and says so
 * with the shard in the MDC).
 */
class AppenderPartitionWatchTest {
    private static final int PARTITIONS = 2;
    private static final long WIDTH = 1000;
    /** Half the default GC grace: a pending batch older than this is dropped. */
    private static final long MAX_BATCH_AGE_MS = SinkContext.Upkeep.DEFAULT.graceMs() / 2;

    /** The fake topic's partition count; negative: the probe fails (broker unreachable). */
    private final AtomicInteger topicPartitions = new AtomicInteger(PARTITIONS);
    private final AtomicInteger probes = new AtomicInteger();
    /** Set: the probe answers through this future (a slow broker), else at once. */
    private volatile java.util.concurrent.CompletableFuture<Integer> slowAnswer;
    private final ShardMetrics metrics = new ShardMetrics("s");
    private final MockTime time = new MockTime(0, 1_700_000_000_000L, 0);
    private BatchCoalescer builder;
    private TopologyDriver appender;

    @BeforeEach
    void start() {
        builder = TestCoalescer.of(CoalescingMode.NONE).shard(new ShardSink("s", "s/", "k/s", metrics)).build();
        PartitionCountProbe probe = new PartitionCountProbe() {
            @Override
            public String topic() {
                return "c";
            }

            @Override
            public java.util.concurrent.CompletableFuture<Integer> partitionsAsync() {
                if (slowAnswer == null) {
                    return PartitionCountProbe.super.partitionsAsync();
                }
                probes.incrementAndGet();
                return slowAnswer;
            }

            @Override
            public int partitions() {
                probes.incrementAndGet();
                if (topicPartitions.get() < 0) {
                    throw new TopicException("no answer describing topic 'c'");
                }
                return topicPartitions.get();
            }
        };
        SinkContext sink = new SinkContext(SinkSettings.of("s", "c-value").withIntervalMs(WIDTH)
            .withPartitions(PARTITIONS).withPunctuate(Duration.ofMillis(10)).withMaxRowBytes(4096), time, metrics, builder,
            new InMemorySchemaRegistry(), SinkContext.Upkeep.DEFAULT, probe, "");
        appender = new TopologyDriver(sink);
    }

    @AfterEach
    void stop() {
        appender.close();
        builder.close();
    }

    @Test
    void shouldCheckThePartitionCountBeforeEverySeal() {
        report(batch(0, WIDTH, 0, 1));
        report(batch(WIDTH, 2 * WIDTH, 0, 1));
        assertEquals(List.of(WIDTH, 2 * WIDTH), uppers());
        assertEquals(2, probes.get(), "one probe per seal");
    }

    @Test
    void shouldNotWaitForTheProbeAndSealEveryCoveredRangeOnItsAnswerOneAppendEach() {
        slowAnswer = new java.util.concurrent.CompletableFuture<>();
        report(batch(0, WIDTH, 0, 1));
        report(batch(WIDTH, 2 * WIDTH, 0, 1));
        report(batch(2 * WIDTH, 3 * WIDTH, 0, 1));
        assertEquals(List.of(), uppers(), "the probe has not answered: the stream thread went on without a seal");
        assertEquals(1, probes.get(), "one probe asked");

        slowAnswer.complete(PARTITIONS);
        appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(List.of(WIDTH, 2 * WIDTH, 3 * WIDTH), uppers(), "one append per range, all on that answer");
        assertEquals(1, probes.get());

        slowAnswer = new java.util.concurrent.CompletableFuture<>();
        report(batch(3 * WIDTH, 4 * WIDTH, 0, 1));
        assertEquals(List.of(), uppers(), "a later seal asks again");
        assertEquals(2, probes.get());
        slowAnswer.complete(PARTITIONS + 1);
        assertThrows(RuntimeException.class, () -> appender.driver.advanceWallClockTime(Duration.ofMillis(20)));
        assertEquals(List.of(), uppers(), "nothing sealed past the added partition");
    }

    @Test
    void shouldAskAfreshForACoverThatFormedAfterTheCoverItAskedForWasGone() {
        slowAnswer = new java.util.concurrent.CompletableFuture<>();
        report(batch(0, WIDTH, 0, 1));
        assertEquals(1, probes.get(), "the cover asked");
        // its batches expire while the probe is asked (an unreachable broker, then a lagging partition)
        time.sleep(MAX_BATCH_AGE_MS + 1_000);
        appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(1, metrics.mismatches(), "the cover is gone");
        slowAnswer.complete(PARTITIONS);

        // minutes later partitions were added, and a new cover forms
        time.sleep(Duration.ofMinutes(5).toMillis());
        appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        slowAnswer = new java.util.concurrent.CompletableFuture<>();
        report(batch(0, WIDTH, 0, 1));

        assertEquals(List.of(), uppers(), "not sealed on an answer asked before the cover formed");
        assertEquals(2, probes.get(), "the new cover asked afresh");
        slowAnswer.complete(PARTITIONS + 1);
        assertThrows(RuntimeException.class, () -> appender.driver.advanceWallClockTime(Duration.ofMillis(20)));
        assertEquals(List.of(), uppers(), "nothing sealed past the added partition");
    }

    @Test
    void shouldNeverSealOncePartitionsWereAddedAndSayWhatToDo() {
        report(batch(0, WIDTH, 0, 1));
        assertEquals(List.of(WIDTH), uppers());
        topicPartitions.set(PARTITIONS + 1);
        RuntimeException failure = assertThrows(RuntimeException.class, () -> report(batch(WIDTH, 2 * WIDTH, 0, 1)));
        assertEquals(List.of(), uppers(), "nothing sealed past the added partition");
        String message = messages(failure);
        assertTrue(message.contains("sealed over 2 partitions of corrections topic 'c', which now has 3")
            && message.contains("partition count cannot change") && message.contains("new shard"), message);
    }

    @Test
    void shouldNotSealWhileTheCountCannotBeVerifiedAndSealAtTheNextPunctuationOnceItCan() {
        topicPartitions.set(-1);
        report(batch(0, WIDTH, 0, 1));
        appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(List.of(), uppers(), "an unverified count is never a pass");
        topicPartitions.set(PARTITIONS);
        appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        assertEquals(List.of(WIDTH), uppers(), "sealed at the punctuation after the probe answered");
    }

    @Test
    void shouldLogTheUnverifiedCountWithTheShardInTheMdcOnProcessAndPunctuation() {
        List<String> logged = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                logged.add(event.getMDCPropertyMap().get(ShardLogContext.KEY) + ": " + event.getFormattedMessage());
            }
        };
        Logger logger = (Logger) LoggerFactory.getLogger("io.mvsink.protocol.PartitionWatch");
        capture.setContext(logger.getLoggerContext());
        capture.start();
        logger.addAppender(capture);
        try {
            topicPartitions.set(-1);
            report(batch(0, WIDTH, 0, 1));
            appender.driver.advanceWallClockTime(Duration.ofMillis(20));
        } finally {
            logger.detachAppender(capture);
        }

        assertEquals(2, logged.size(), logged.toString());
        for (String line : logged) {
            assertTrue(line.startsWith("s: cannot verify the partition count of c before a seal"), line);
        }
        assertNull(MDC.get(ShardLogContext.KEY), "the stream thread keeps no shard after the work");
    }

    private void report(Batch batch) {
        appender.report(batch);
    }

    /** The uppers of the diffs written since the last call. */
    private List<Long> uppers() {
        return appender.consensus.readRecordsToList().stream()
            .filter(r -> r.value() != null && ConsensusKeys.isDiff(new String(r.key(), StandardCharsets.UTF_8)))
            .map(r -> Codecs.STATE_DIFF.decode(r.value())).map(StateDiff::getUpper).toList();
    }

    private Batch batch(long lower, long upper, int... partitions) {
        Batch batch = Batches.batch(lower, upper, partitions);
        batch.setClosedAtMs(time.milliseconds());
        return batch;
    }

    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            text.append(cause.getMessage()).append('\n');
        }
        return text.toString();
    }
}
