package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.avro.StateDiff;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A consensus topic with a small {@code max.message.bytes} (64 KiB) and inline data on at its
 * largest (issue 21 item 3): a backlog whose minted range holds about 55 KB per partition, then
 * intervals alternating between about 10 KB and 1 KB per partition, over 8 partitions in mode
 * {@code none} (8 batches per step). Before the record bound, the first append (8 inline batches of
 * about 55 KB) failed with {@code RecordTooLargeException} and stopped the app; now every row is
 * sealed, the snapshot is exact, and small intervals are still sealed inline.
 */
@ExtendWith(LocalStackExtension.class)
class SealSizeIT {
    private static final int PARTITIONS = 8;
    private static final long INTERVAL_MS = 500;
    private static final int INTERVALS = 20;
    private static final int BACKLOG = 10;
    private static final String PADDING = "p".repeat(200);

    @Test
    void shouldSealEveryRowWithinASmallConsensusTopicsRecordLimit(LocalStack stack) throws Exception {
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.COALESCING_MODE, "none");
        overrides.put(MvsinkConfig.INLINE_MAX_BYTES, "65536");
        overrides.put(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS, "3000");
        try (SinkHarness sink = new SinkHarness(stack, PARTITIONS, overrides);
             CorrectionProducer producer = sink.producer()) {
            try (Admin admin = Admin.create(sink.clientProps())) {
                admin.createTopics(List.of(new NewTopic(sink.name + "-consensus", 1, (short) 1).configs(Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(64 * 1024))))).all().get(60, TimeUnit.SECONDS);
            }
            int id = 0;
            for (int interval = 0; interval < BACKLOG; interval++) {
                id = produce(producer, interval, id);
            }
            MvsinkApp app = sink.startApp(2);
            awaitUpper(sink, app, BACKLOG * INTERVAL_MS);
            // paced: one interval at a time, so that each is one minted range of its own
            for (int interval = BACKLOG; interval < INTERVALS; interval++) {
                id = produce(producer, interval, id);
                awaitUpper(sink, app, (interval + 1) * INTERVAL_MS);
            }
            long upper = INTERVALS * INTERVAL_MS;
            sink.assertSealedExactly(upper);
            List<StateDiff> diffs = ConsensusReader.diffs(sink.clientProps(), sink.name + "-consensus",
                sink.correctionsTopic(), Duration.ofSeconds(30));
            assertTrue(diffs.stream().flatMap(d -> d.getAdded().stream()).anyMatch(b -> ShardState.inlineBytes(b) > 0),
                "small intervals are still sealed inline");
            assertTrue(app.failure().isEmpty(), "no failure: " + app.failure());
        }
    }

    private static void awaitUpper(SinkHarness sink, MvsinkApp app, long upper) {
        sink.awaitUpperWhileRunning(app, upper, Duration.ofSeconds(30));
    }

    /** Odd intervals about 1 KB per partition, even ones about 10 KB (rows of about 220 bytes); then progress. */
    private static int produce(CorrectionProducer producer, int interval, int firstId) {
        int rows = (interval % 2 == 0 ? 45 : 5) * PARTITIONS;
        long time = interval * INTERVAL_MS;
        int id = firstId;
        for (int i = 0; i < rows; i++, id++) {
            producer.update("row-" + id, row(id), time + i % INTERVAL_MS, 1);
        }
        producer.progress(time + INTERVAL_MS);
        producer.flush();
        return id;
    }

    private static GenericRecord row(long id) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", PADDING + id % 5);
        row.put("amount", id * 3);
        return row;
    }
}
