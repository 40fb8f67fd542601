package io.mvsink.it;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.Properties;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * More than a MiB of one partition's updates in one grid interval between two commits: a 10-minute
 * grid and a backlog of 3 MB in it. The correction buffer writes what is pending once it reaches
 * about a MiB, one store entry (and changelog record) per interval; before this test that entry
 * could exceed the producer's default {@code max.request.size} (1 MiB), so the changelog send
 * failed with {@code RecordTooLargeException}, every time the task processed the same input again.
 */
@ExtendWith(LocalStackExtension.class)
class LargeIntervalIT {
    private static final long INTERVAL_MS = 600_000;
    private static final int ROWS = 6_000;
    private static final String PADDING = "q".repeat(500);

    @Test
    void shouldSealAnIntervalHoldingMoreThanAMebibyteOfOnePartitionsUpdates(LocalStack stack) throws Exception {
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(INTERVAL_MS));
        try (SinkHarness sink = new SinkHarness(stack, 1, overrides);
             CorrectionProducer producer = sink.producer()) {
            for (int id = 0; id < ROWS; id++) {
                producer.update("row-" + id, row(id), 1_000 + id, 1);
            }
            producer.progress(INTERVAL_MS);
            producer.flush();
            MvsinkApp app = sink.startApp(1);
            sink.awaitUpperWhileRunning(app, INTERVAL_MS, Duration.ofSeconds(60));
            sink.assertSealedExactly(INTERVAL_MS);
        }
    }

    private static GenericRecord row(long id) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", PADDING + id);
        row.put("amount", id);
        return row;
    }
}
