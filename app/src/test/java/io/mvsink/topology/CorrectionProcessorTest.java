package io.mvsink.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.mvsink.protocol.TestCoalescer;
import io.mvsink.logging.ShardLogContext;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.TaskProgress;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.protocol.Contributor;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.MockTime;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One correction task against a mock context: which ranges it contributes when it contributes
 * again. Copies must be cut at every grid point, or a copy can span a boundary that an earlier
 * copy (in a batch shared with other partitions) has, and no exact cover can ever use both
 * (see SealCoverTest#shouldFindNoCoverWhileACopySpansABoundaryItsBundleMateNeeds).
 */
class CorrectionProcessorTest {
    /** What the consensus mirror counts: bumped with every write of the test's own to the store. */
    private final AtomicLong mirrorWrites = new AtomicLong();
    private static final int PARTITION = 2;

    private final MockTime time = new MockTime(0, 1_000_000, 0);
    private final ShardMetrics metrics = new ShardMetrics("s");
    private BatchCoalescer batches;
    private MockProcessorContext<byte[], byte[]> context;
    private KeyValueStore<Integer, byte[]> progress;
    private KeyValueStore<String, byte[]> consensus;
    private CorrectionProcessor task;

    @BeforeEach
    void start() throws Exception {
        start(CoalescingMode.NONE, 1000);
    }

    private void start(CoalescingMode mode, long barrierTimeoutMs) throws Exception {
        if (batches != null) {
            batches.close();
        }
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        batches = TestCoalescer.of(mode).schemas(registry).time(time)
            .settings(s -> s.withBarrierTimeout(Duration.ofMillis(barrierTimeoutMs)))
            .shard(TestCoalescer.sink("s", metrics)).build();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        File stateDir = Files.createTempDirectory("mvsink-task-test").toFile();
        context = new MockProcessorContext<>(props, new TaskId(0, PARTITION), stateDir);
        CorrectionBuffer buffer = new CorrectionBufferBuilder(Stores.inMemoryKeyValueStore(StoreNames.BUFFER), 1000)
            .withLoggingDisabled().build();
        buffer.init(context.getStateStoreContext(), buffer);
        context.addStateStore(buffer);
        progress = add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(StoreNames.PROGRESS),
            Serdes.Integer(), Serdes.ByteArray()));
        consensus = add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(StoreNames.CONSENSUS),
            Serdes.String(), Serdes.ByteArray()));
        task = new CorrectionProcessor(new SinkContext(SinkSettings.of("s", "c-value").withPartitions(4).withPunctuate(Duration.ofMillis(10)), time,
            metrics, batches, registry), mirrorWrites::get);
    }

    @AfterEach
    void stop() {
        batches.close();
    }

    @Test
    void shouldContributeWhatAPreviousOwnerMayHaveContributedInGridIntervalPieces() {
        sealed(2_000);
        progress.put(PARTITION, Codecs.TASK_PROGRESS.encode(new TaskProgress(5_500L, 0L, 0L)));
        task.init(context);
        tick();
        progressRecord(6_200);
        assertEquals(List.of("2000-3000", "3000-4000", "4000-5000", "5000-6000"), reported(),
            "from the sealed upper to past the restored frontier (a killed owner may have got further), the "
                + "earlier owner's boundaries are unknown: cut at every grid point");
        progressRecord(Contributor.COPY_MARGIN * 1000L + 9_700);
        List<String> ranges = reported();
        assertEquals((5_000 + Contributor.COPY_MARGIN * 1000L) + "-"
            + (9_000 + Contributor.COPY_MARGIN * 1000L), ranges.get(ranges.size() - 1),
            "past the margin a contribution spans what the frontier passed again");
    }

    @Test
    void shouldContributeAStuckRangeAgainInGridIntervalPieces() {
        sealed(2_000);
        task.init(context);
        progressRecord(4_100);
        assertEquals(List.of("2000-3000", "3000-4000"), reported());

        time.sleep(60_000);
        tick();
        assertEquals(List.of("2000-3000", "3000-4000", "2000-3000", "3000-4000"), reported(),
            "a range not sealed in time is contributed again, one piece per interval");
    }

    @Test
    void shouldLogTheContributorsLinesWithTheShardAndPartitionInTheMdcNotInTheMessage() {
        List<String> logged = new CopyOnWriteArrayList<>();
        AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                Map<String, String> mdc = event.getMDCPropertyMap();
                logged.add(mdc.get(ShardLogContext.KEY) + "/" + mdc.get(ShardLogContext.PARTITION) + ": "
                    + event.getFormattedMessage());
            }
        };
        Logger logger = (Logger) LoggerFactory.getLogger(Contributor.class);
        Level level = logger.getLevel();
        logger.setLevel(Level.INFO);
        capture.setContext(logger.getLoggerContext());
        capture.start();
        logger.addAppender(capture);
        try {
            sealed(2_000);
            task.init(context);
            progressRecord(4_100);
            reported();
            time.sleep(60_000);
            tick();
        } finally {
            logger.detachAppender(capture);
            logger.setLevel(level);
        }

        assertTrue(logged.contains("s/" + PARTITION + ": [2000, 4000) not sealed within 60000 ms, contributing again"),
            logged.toString());
        assertNull(MDC.get(ShardLogContext.PARTITION), "the stream thread keeps no partition after the work");
    }

    @Test
    void shouldCutAtMostSoManyIntervalsOfALongCopy() {
        sealed(2_000);
        long frontier = 2_000 + (Contributor.COPY_PIECES + 50) * 1000L;
        progress.put(PARTITION, Codecs.TASK_PROGRESS.encode(new TaskProgress(frontier + 500, 0L, 0L)));
        task.init(context);
        tick();
        List<String> ranges = reported();
        assertEquals(Contributor.COPY_PIECES + 1, ranges.size());
        assertEquals("2000-3000", ranges.get(0), "pieces from where the earlier copy may have a gap");
        assertEquals((2_000 + Contributor.COPY_PIECES * 1000L) + "-" + frontier, ranges.get(ranges.size() - 1),
            "the rest in one (a later round starts higher)");
    }

    @Test
    void shouldNotCutTheFirstContributionOfAShardThatSealedNothing() {
        task.init(context);
        progressRecord(1_000_000);
        assertEquals(List.of("0-1000000"), reported(), "a frontier jump is one contribution");
    }

    @Test
    void shouldNotContributeAgainWhileTheLastCopyIsStillInTheRegistry() throws Exception {
        start(CoalescingMode.BARRIER, 3_600_000);
        batches.register("s", 3); // a local task that never contributes: the barrier holds the copy open
        sealed(2_000);
        progress.put(PARTITION, Codecs.TASK_PROGRESS.encode(new TaskProgress(4_500L, 0L, 0L)));
        task.init(context);
        tick();
        assertEquals(2, metrics.contributions(), "the copy, in two pieces");

        time.sleep(60_000);
        tick();
        assertEquals(0, metrics.recontributions(), "another round would queue behind the copy");
        assertEquals(2, metrics.contributions());
    }

    private <S extends KeyValueStore<K, byte[]>, K> S add(StoreBuilder<S> builder) {
        S store = builder.withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    private void sealed(long upper) {
        StateDiff diff = StateDiff.newBuilder().setShard("s").setSeqno(1).setLower(0).setUpper(upper)
            .setPartitionCount(4).setAdded(List.of()).setAppendedAtMs(0L).build();
        consensus.put(ConsensusKeys.diff("s", 1), Codecs.STATE_DIFF.encode(diff));
        mirrorWrites.incrementAndGet();
    }

    private void progressRecord(long upper) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("mvsink.upper", Long.toString(upper).getBytes(StandardCharsets.UTF_8));
        task.process(new Record<>(null, null, upper, headers));
    }

    private void tick() {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(time.milliseconds());
    }

    /** The contribution ranges of the reports forwarded so far, once every contribution's batch is built. */
    private List<String> reported() {
        await().atMost(Duration.ofSeconds(10)).until(() -> metrics.batchesBuilt() >= metrics.contributions());
        tick();
        return context.forwarded().stream()
            .map(f -> Codecs.REPORT.decode(f.record().value()).getBatch().getContributions().get(0))
            .map(CorrectionProcessorTest::range)
            .toList();
    }

    private static String range(Contribution c) {
        return c.getLower() + "-" + c.getUpper();
    }
}
