package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mvsink run} as an operator meets its log, in a JVM of its own with the shipped logback.xml in
 * JSON mode: an account whose blob endpoint is unreachable (a closed port). It fails before any Kafka
 * client starts, so no broker is needed. Every line being JSON shows that nothing bypasses logback;
 * the text layout's date is ShippedLoggingTest's.
 */
class RunLoggingTest {
    private static final String ENDPOINT = "http://127.0.0.1:1/devstoreaccount1";
    private static final String ACCOUNT_KEY = "c2VjcmV0LWtleS1vZi10aGUtdGVzdA==";
    private static final String CONNECTION_STRING = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        + "AccountKey=" + ACCOUNT_KEY + ";BlobEndpoint=" + ENDPOINT + ";";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> lines;
    private static List<JsonNode> events;

    @BeforeAll
    static void runOnce(@TempDir Path dir) throws Exception {
        lines = run(dir.resolve("run.log"));
        events = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("{")) {
                events.add(JSON.readTree(line));
            }
        }
    }

    @Test
    void shouldWriteEveryLineAsOneJsonObjectInJsonMode() throws Exception {
        assertFalse(lines.isEmpty(), "the run logged something");
        for (String line : lines) {
            assertTrue(line.startsWith("{"), "not JSON: " + line + "\nin\n" + String.join("\n", lines));
            assertTrue(JSON.readTree(line).isObject(), line);
        }
    }

    @Test
    void shouldLogTheStartWithItsShardThroughTheMvsinkLogger() {
        assertTrue(events.stream().anyMatch(e -> e.path("loggerName").asText().equals(Main.LOGGER)
            && e.path("level").asText().equals("INFO") && e.path("formattedMessage").asText().equals("starting")
            && e.at("/mdc/shard").asText().equals("orders")), String.join("\n", lines));
    }

    @Test
    void shouldSayOnceWhichEndpointAndOptionFailedWithoutTheAzureSdksErrors() {
        for (JsonNode event : events) {
            assertFalse(event.path("loggerName").asText().startsWith("com.azure"), "an Azure SDK line: " + event);
        }
        List<JsonNode> errors = events.stream().filter(e -> e.path("level").asText().equals("ERROR")).toList();
        assertEquals(1, errors.size(), String.join("\n", lines));
        assertEquals(Main.LOGGER, errors.get(0).path("loggerName").asText());
        String error = errors.get(0).path("formattedMessage").asText();
        assertTrue(error.contains(ENDPOINT), "names the endpoint: " + error);
        assertTrue(error.contains("blob.connection.string"), "names the option: " + error);
        assertTrue(error.contains("could not connect"), error);
        assertFalse(String.join("\n", lines).contains(ACCOUNT_KEY), "the account key leaked");
    }

    /** The lines (stdout and stderr, through {@code out}) of {@code mvsink run} against the unreachable account. */
    private static List<String> run(Path out) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=" + shippedLogback(),
            Main.class.getName(), "run", "--set", "bootstrap.servers=127.0.0.1:1", "--set", "corrections.topic=orders",
            "--set", "schema.registry.url=http://127.0.0.1:1", "--set", "blob.connection.string=" + CONNECTION_STRING));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("MVSINK_") || name.startsWith("AZURE_"));
        env.put("MVSINK_LOG_FORMAT", "json");
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("mvsink run did not give up on the unreachable endpoint in 120 s");
        }
        assertEquals(ExitCodes.FAILURE, process.exitValue(), Files.readString(out));
        return Files.readAllLines(out, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank()).toList();
    }

    /** The URL of the jar's logback.xml (in target/classes), not of the test classpath's logback-test.xml. */
    private static String shippedLogback() {
        var url = RunLoggingTest.class.getResource("/logback.xml");
        assertNotNull(url, "logback.xml on the classpath");
        return url.toString();
    }
}
