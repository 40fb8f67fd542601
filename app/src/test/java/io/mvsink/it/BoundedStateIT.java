package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.blob.BlobInfo;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.local.LocalStackLauncher;
import io.mvsink.local.LocalStackOptions;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A long run on the real stack (at least 5,000 appends) with compaction, rollups, since and the
 * in-app blob GC on: the shard's live batches, the records its compacted consensus topic retains
 * and its blobs stay under their bounds while the appends grow, and the snapshot still equals the
 * independent model. The consensus topic is created with a cleaner that runs within seconds (the
 * test broker looks every second), as a production topic's would within its segment time.
 */
@ExtendWith(LocalStackExtension.class)
class BoundedStateIT {
    private static final int ROLLUP_APPENDS = 100;
    private static final long GRACE_MS = 32_000;
    private static final long GC_INTERVAL_MS = 5_000;
    private static final long INTERVAL_MS = 50;
    private static final int MIN_APPENDS = 5_000;

    private record Sample(double atSeconds, long appends, int live, long retained, int blobs,
                          int referenced) {
    }

    /**
     * The run writes thousands of blobs and deletes most of them; Azurite frees deleted blobs late,
     * so the run gets an Azurite of its own (stopped at its end) and the suite's shared one stays light.
     */
    @Test
    void shouldKeepBatchesConsensusRecordsAndBlobsBoundedOverFiveThousandAppends(LocalStack shared) throws Exception {
        try (LocalStack blobs = LocalStackLauncher.start(LocalStackOptions.defaults()
                .withComponents(EnumSet.of(LocalStackOptions.Component.BLOB)))) {
            run(new LocalStack() {
                @Override
                public String bootstrapServers() {
                    return shared.bootstrapServers();
                }

                @Override
                public String registryUrl() {
                    return shared.registryUrl();
                }

                @Override
                public String blobConnectionString() {
                    return blobs.blobConnectionString();
                }

                @Override
                public void close() {
                }
            });
        }
    }

    private void run(LocalStack stack) throws Exception {
        Properties props = new Properties();
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(INTERVAL_MS));
        props.put(MvsinkConfig.PUNCTUATE_INTERVAL_MS, "20");
        props.put(MvsinkConfig.COMPACTION_SINCE_LAG_MS, "2000");
        props.put(MvsinkConfig.ROLLUP_APPENDS, Integer.toString(ROLLUP_APPENDS));
        props.put(MvsinkConfig.GC_GRACE_MS, Long.toString(GRACE_MS));
        props.put(MvsinkConfig.GC_INTERVAL_MS, Long.toString(GC_INTERVAL_MS));
        props.put(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS, "4000");
        // this run's seals are small enough to go inline, which would leave no part blob for the GC and hold up to
        // 128 inline seals back from merging (their bound: AppenderUpkeepTest, CompactionPolicyTest); the bounds here
        // are those of blob-backed batches
        props.put(MvsinkConfig.INLINE_MAX_BYTES, "0");
        // the least safe grace is 4 x (transaction timeout + barrier timeout + linger + 2 s): 31 s here
        props.put("streams.producer.transaction.timeout.ms", "5000");
        props.put(MvsinkConfig.BARRIER_TIMEOUT_MS, "500");
        long started = System.nanoTime();
        try (SinkHarness sink = new SinkHarness(stack, 2, props);
             CorrectionProducer producer = sink.producer()) {
            createConsensusTopic(sink);
            MvsinkApp app = sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(61, 300, 0.4), Time.SYSTEM);
            List<Sample> samples = new ArrayList<>();
            Sample last;
            do {
                runner.run(300, 4_000, Long.MAX_VALUE, INTERVAL_MS, n -> { });
                last = sample(sink, started);
                samples.add(last);
                System.err.println("bounded state: " + last + " mismatches=" + app.metrics().mismatches()
                    + " recontributions=" + app.metrics().recontributions() + " compactions="
                    + app.metrics().compactions());
            } while (last.appends() < MIN_APPENDS && seconds(started) < 420);

            Map<String, Long> model = sealAndCompare(sink, runner);
            Sample end = sample(sink, started);
            samples.add(end);
            report(samples, end, app, runner.sent(), model.size());

            assertTrue(end.appends() >= MIN_APPENDS, "appends: " + end.appends());
            assertTrue(app.metrics().compactions() > 0 && app.metrics().rollups() > 0);
            assertEquals(0, sink.orphanedBatches(), "orphaned batches");
            // the bounds (docs/ARCHITECTURE.md, Bounded state) and that none of them grows with the run
            // 1 + log2(W) runs (W <= updates + seals) plus the seals appended while one merge ran
            int liveBound = 3 * log2(end.appends());
            long retainedBound = 4L * ROLLUP_APPENDS;
            for (Sample s : samples) {
                // the first half minute is warm-up: the seals that piled up while the app started and its
                // first (slow, cold) merge ran are the bound's term for seals appended during a merge
                assertTrue(s.live() <= liveBound || s.atSeconds() < 30, "live batches " + s.live() + " over "
                    + liveBound + " at " + s);
                assertTrue(s.retained() <= retainedBound, "retained records " + s.retained() + " over " + retainedBound
                    + " at " + s);
            }
            List<Sample> second = samples.subList(samples.size() / 2, samples.size());
            List<Sample> first = samples.subList(1, Math.max(2, samples.size() / 2));
            int blobsFirst = first.stream().mapToInt(Sample::blobs).max().orElse(0);
            int blobsSecond = second.stream().mapToInt(Sample::blobs).max().orElse(0);
            assertTrue(blobsSecond <= blobsFirst * 3 / 2 + 50, "blob count does not grow with the run: first half "
                + blobsFirst + ", second half " + blobsSecond);
            long written = app.metrics().partsWritten();
            assertTrue(end.blobs() < written / 3, "the GC removed most of the " + written + " parts: " + end.blobs()
                + " remain");
        }
    }

    private static Map<String, Long> sealAndCompare(SinkHarness sink, WorkloadRunner runner) {
        ShardState state = sink.awaitUpper(runner.sealThrough(INTERVAL_MS));
        Map<String, Long> model = TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry,
            state.upper());
        assertEquals(model, sink.snapshot(state), "snapshot equals the model read back from the corrections topic");
        return model;
    }

    private static Sample sample(SinkHarness sink, long started) {
        ConsensusReader.Log log = ConsensusReader.log(sink.clientProps(), sink.name + "-consensus",
            sink.correctionsTopic(), Duration.ofSeconds(30));
        ShardState state = log.state();
        List<BlobInfo> blobs = sink.blobs.list(sink.correctionsTopic() + "/");
        return new Sample(seconds(started), state.seqno(), state.batches().size(), log.records(), blobs.size(),
            state.referencedBlobs().size());
    }

    private static void report(List<Sample> samples, Sample end, MvsinkApp app, long sent, int rows) {
        System.err.printf("BoundedStateIT summary: appends=%d seals=%d compactions=%d conflicts=%d rollups=%d "
                + "mismatches=%d recontributions=%d updates=%d rows=%d "
                + "maxLive=%d maxRetained=%d maxBlobs=%d endBlobs=%d partsWritten=%d runTime=%.1fs%n",
            end.appends(), app.metrics().appends(), app.metrics().compactions(), app.metrics().compactionConflicts(),
            app.metrics().rollups(), app.metrics().mismatches(), app.metrics().recontributions(), sent, rows,
            samples.stream().mapToInt(Sample::live).max().orElse(0),
            samples.stream().mapToLong(Sample::retained).max().orElse(0),
            samples.stream().mapToInt(Sample::blobs).max().orElse(0), end.blobs(), app.metrics().partsWritten(),
            end.atSeconds());
    }

    /** The shard's consensus topic with a log cleaner that runs within seconds (other ITs of bounded state use it). */
    static void createConsensusTopic(SinkHarness sink) throws Exception {
        try (Admin admin = Admin.create(sink.clientProps())) {
            NewTopic topic = new NewTopic(sink.name + "-consensus", Optional.of(1), Optional.empty()).configs(Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_MS_CONFIG, "1000",
                TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.01",
                TopicConfig.DELETE_RETENTION_MS_CONFIG, "1000",
                TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0"));
            admin.createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        }
    }

    private static int log2(long n) {
        return 64 - Long.numberOfLeadingZeros(Math.max(1, n));
    }

    private static double seconds(long started) {
        return (System.nanoTime() - started) / 1e9;
    }
}
