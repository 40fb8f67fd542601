package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.blob.AzureBlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A shard's parts live in one container: a restart pointed at another blob.container is refused
 * before it writes or seals anything, naming both places, and the shard still reads exactly; a
 * snapshot pointed at the other container says where the parts are instead of missing them.
 */
@ExtendWith(LocalStackExtension.class)
class BlobLocationIT {

    @Test
    void shouldRefuseARestartWithAnotherContainerNamingBoth(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties());
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp first = sink.startApp(1);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(31, 100, 0.3), Time.SYSTEM);
            runner.run(1000, 2_000, 2_000, 100, n -> { });
            Map<String, Long> model = sink.assertSealedExactly(runner.sealThrough(500));
            first.close(Duration.ofSeconds(30));

            Properties moved = new Properties();
            sink.config(1).originals().forEach(moved::put);
            moved.put(MvsinkConfig.BLOB_CONTAINER, "mvsink-it-other");
            MvsinkConfig config = new MvsinkConfig(moved);
            try (AzureBlobStore other = Wiring.blobs(config);
                 BatchCoalescer batches = Wiring.batches(config, other, sink.registry, Time.SYSTEM);
                 MvsinkApp second = new MvsinkApp(config, new MvsinkApp.Dependencies(sink.registry, other, batches,
                     new ShardMetrics(config.shard()), Time.SYSTEM))) {
                RuntimeException refused = assertThrows(RuntimeException.class, second::start,
                    "a start pointed at another container is refused");
                String message = SinkHarness.messages(refused);
                assertTrue(message.contains("devstoreaccount1/mvsink-it") && message.contains("devstoreaccount1/mvsink-it-other")
                    && message.contains(MvsinkConfig.BLOB_CONTAINER), message);
            }
            // nothing was sealed elsewhere: the shard still reads exactly from its own container
            assertEquals(model, sink.snapshot(sink.state()));

            List<String> snapshotElsewhere = new ArrayList<>(List.of("snapshot"));
            snapshotElsewhere.addAll(sink.cliArgs());
            snapshotElsewhere.addAll(List.of("--set", MvsinkConfig.BLOB_CONTAINER + "=mvsink-it-other"));
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            PrintStream err = System.err;
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            CliRun.Result result;
            try {
                result = CliRun.run(snapshotElsewhere);
            } finally {
                System.setErr(err);
            }
            String said = errors.toString(StandardCharsets.UTF_8);
            assertTrue(result.exit() != 0 && result.lines().isEmpty(), "the snapshot of another container fails: " + result);
            assertTrue(said.contains("keeps its parts at devstoreaccount1/mvsink-it ") && !said.contains("no blob at"),
                said);
        }
    }
}
