package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.cli.Main;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The produce and snapshot commands, as a user runs them, against a running sink. */
@ExtendWith(LocalStackExtension.class)
class CommandLineIT {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void shouldSnapshotWhatTheProduceCommandWrote(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 3, new Properties())) {
            sink.startApp(2);
            List<String> produce = new ArrayList<>(List.of("produce", "--rate", "800", "--duration-s", "3",
                "--keys", "200", "--seed", "5"));
            produce.addAll(sink.cliArgs());
            assertEquals(0, Main.execute(produce.toArray(String[]::new)));

            Map<String, Long> model = new TreeMap<>();
            TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry, Long.MAX_VALUE)
                .forEach((row, count) -> model.put(compact(row), count));
            assertTrue(model.size() > 100, "the produce command wrote a workload");
            List<String> snapshot = new ArrayList<>(List.of("snapshot"));
            snapshot.addAll(sink.cliArgs());
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> model.equals(rows(snapshot)));
        }
    }

    @Test
    void shouldExitNonZeroWithTheOptionNameOnABadValue() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(1, Main.execute("snapshot", "--set", "bootstrap.servers=x:1", "--set", "corrections.topic=c",
                "--set", "schema.registry.url=http://x", "--set", "blob.connection.string=x",
                "--set", "batch.interval.ms=0"));
        } finally {
            System.setErr(err);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).contains("batch.interval.ms"), captured.toString());
    }

    private String compact(String jsonText) {
        try {
            return json.readTree(jsonText).toString();
        } catch (Exception e) {
            throw new IllegalArgumentException(jsonText, e);
        }
    }

    /** Runs the snapshot command and parses its JSON lines into row to count. */
    private Map<String, Long> rows(List<String> args) throws Exception {
        CliRun.Result result = CliRun.run(args);
        assertEquals(0, result.exit());
        Map<String, Long> rows = new TreeMap<>();
        for (String line : result.lines()) {
            JsonNode node = json.readTree(line);
            rows.put(node.get("row").toString(), node.get("count").asLong());
        }
        return rows;
    }
}
