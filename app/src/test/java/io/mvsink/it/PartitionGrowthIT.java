package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Partitions added to the corrections topic while the app runs: the shard must never seal a time
 * that a partition it has not heard from may hold, and the app stops saying what to do; a restart
 * over the grown topic is refused at start.
 */
@ExtendWith(LocalStackExtension.class)
class PartitionGrowthIT {
    private static final long T0 = 1_000_000;

    @Test
    void shouldStopInsteadOfSealingPastPartitionsAddedWhileRunning(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 4, new Properties())) {
            MvsinkApp app = sink.startApp(2);
            Workload workload = new Workload(21, 200, 0.2);
            try (CorrectionProducer producer = sink.producer()) {
                write(producer, workload, T0, 1_000);
                producer.progress(T0 + 10_000);
                producer.flush();
            }
            sink.awaitUpper(T0 + 10_000);

            try (Admin admin = Admin.create(sink.clientProps())) {
                admin.createPartitions(Map.of(sink.correctionsTopic(), NewPartitions.increaseTo(6)))
                    .all().get(60, TimeUnit.SECONDS);
            }
            try (CorrectionProducer producer = sink.producer()) {
                assertEquals(6, producer.partitions(), "a new producer sees the added partitions");
                write(producer, workload, T0 + 10_000, 1_000);
                producer.progress(T0 + 20_000);
                producer.flush();
            }

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> app.state() == KafkaStreams.State.ERROR || sink.state().upper() >= T0 + 20_000);
            ShardState state = sink.state();
            Map<String, Long> model = TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry,
                state.upper());
            Map<String, Long> snapshot = sink.snapshot(state);
            long missing = model.entrySet().stream().filter(row -> !row.getValue().equals(snapshot.get(row.getKey())))
                .count();
            assertEquals(0, missing, "rows of the model below the sealed upper " + state.upper()
                + " that the snapshot lacks or counts otherwise (of " + model.size() + ")");
            assertEquals(model, snapshot);
            assertEquals(KafkaStreams.State.ERROR, app.state(), "the app stops");
            assertTrue(app.failure().map(SinkHarness::messages).orElse("").contains("partition count cannot change"),
                "the failure says what happened: " + app.failure());

            RuntimeException refused = assertThrows(RuntimeException.class, () -> sink.startApp(1),
                "a restart over the grown topic is refused before its stream threads start");
            assertTrue(SinkHarness.messages(refused).contains("sealed over 4 partitions")
                && SinkHarness.messages(refused).contains("which now has 6"), SinkHarness.messages(refused));
            assertEquals(state.upper(), sink.state().upper(), "nothing more was sealed");
        }
    }

    /** {@code n} updates, keyed by row, with times from {@code from} ten apart. */
    private static void write(CorrectionProducer producer, Workload workload, long from, int n) {
        for (int i = 0; i < n; i++) {
            Workload.Correction c = workload.next();
            producer.update(c.key(), c.row(), from + i * 10L, c.diff());
        }
    }
}
