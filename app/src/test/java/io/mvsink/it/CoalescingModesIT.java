package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** 8 stream threads over 8 partitions in each coalescing mode, on the real stack. */
@ExtendWith(LocalStackExtension.class)
class CoalescingModesIT {

    @ParameterizedTest
    @ValueSource(strings = {"none", "best-effort", "barrier"})
    void shouldSealExactlyWhatWasProducedInEveryMode(String mode, LocalStack stack) throws Exception {
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, mode);
        try (SinkHarness sink = new SinkHarness(stack, 8, props);
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(8);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(31, 500, 0.3), Time.SYSTEM);
            runner.run(2000, 8_000, 16_000, 100, n -> { });
            sink.assertSealedExactly(runner.sealThrough(500));

            // seals only: a compaction's merged batch holds every partition whatever the mode
            List<StateDiff> diffs = ConsensusReader.diffs(sink.clientProps(), sink.name + "-consensus",
                sink.correctionsTopic(), Duration.ofSeconds(30)).stream().filter(d -> !ShardState.isCompaction(d))
                .toList();
            int most = diffs.stream().flatMap(d -> d.getAdded().stream())
                .mapToInt(b -> b.getContributions().size()).max().orElse(0);
            if (mode.equals("none")) {
                assertEquals(1, most, "mode none never shares a batch");
            }
            if (mode.equals("barrier")) {
                assertEquals(8, most, "a barrier batch holds the contributions of all 8 local tasks");
                long appends = diffs.size();
                long batches = diffs.stream().mapToLong(d -> d.getAdded().size()).sum();
                assertTrue(batches < appends * 2, "barrier appends mostly one batch: " + batches + " in " + appends);
            }
            assertTrue(app.metrics().appends() > 0);
        }
    }
}
