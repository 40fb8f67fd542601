package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SIGTERM to {@code mvsink run} mid-stream: it stops in bounded time, nothing half-appended, the next
 * start continues; the first run logs as the jar does in JSON mode, its lifecycle lines included.
 */
@ExtendWith(LocalStackExtension.class)
class GracefulShutdownIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldStopOnSigtermMidStreamAndContinueOnTheNextStart(LocalStack stack) throws Exception {
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, "barrier");
        try (SinkHarness sink = new SinkHarness(stack, 4, props);
             CorrectionProducer producer = sink.producer()) {
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(81, 300, 0.3), Time.SYSTEM);
            try (ChildApp first = ChildApp.start(sink, "first", ChildApp.shippedLogging("json"),
                List.of("--set", "num.stream.threads=2"))) {
                CompletableFuture<Long> producing = CompletableFuture.supplyAsync(
                    () -> runner.run(1000, 12_000, 12_000, 100, n -> { }));
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> sink.state().seqno() >= 3);
                assertTrue(first.terminate(Duration.ofSeconds(60)), "mvsink run stops within 60 s of SIGTERM");
                assertLifecycleInJson(first.log(), sink.correctionsTopic());
                sink.assertEveryAppendIsAnExactCover();
                producing.join();
            }
            try (ChildApp second = ChildApp.start(sink, "second", List.of(), List.of("--set", "num.stream.threads=2"))) {
                runner.run(1000, 3_000, 3_000, 100, n -> { });
                sink.assertSealedExactly(runner.sealThrough(500));
            }
        }
    }

    /** Every line of {@code log} is a JSON object, the lifecycle lines among them, in order, with the shard. */
    private static void assertLifecycleInJson(String log, String shard) throws Exception {
        List<String> lifecycle = new ArrayList<>();
        for (String line : log.lines().filter(l -> !l.isBlank()).toList()) {
            assertTrue(line.startsWith("{"), "not JSON: " + line);
            JsonNode event = JSON.readTree(line);
            if (event.path("loggerName").asText().equals("mvsink")) {
                assertEquals(shard, event.at("/mdc/shard").asText(), line);
                lifecycle.add(event.path("formattedMessage").asText().replaceAll("[;:].*", ""));
            }
        }
        assertEquals(List.of("starting", "started", "stopping", "stopped"), lifecycle, log);
    }
}
