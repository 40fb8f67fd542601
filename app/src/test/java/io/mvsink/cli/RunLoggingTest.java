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
 * {@code mvsink run} as an operator meets its log, in a JVM of its own with the shipped logback.xml:
 * an account whose blob endpoint is unreachable (a closed port), once per log format. It fails before
 * any Kafka client starts, so no broker is needed.
 */
class RunLoggingTest {
    private static final String ENDPOINT = "http://127.0.0.1:1/devstoreaccount1";
    private static final String ACCOUNT_KEY = "c2VjcmV0LWtleS1vZi10aGUtdGVzdA==";
    private static final String CONNECTION_STRING = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        + "AccountKey=" + ACCOUNT_KEY + ";BlobEndpoint=" + ENDPOINT + ";";
    /** ISO-8601 local date and time with milliseconds and the offset. */
    private static final String ISO_DATE = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) .*";

    private static List<String> json;
    private static List<String> text;

    @BeforeAll
    static void runOncePerFormat(@TempDir Path dir) throws Exception {
        json = run(dir, "json");
        text = run(dir, "text");
    }

    @Test
    void shouldWriteEveryLineAsOneJsonObjectInJsonMode() throws Exception {
        assertFalse(json.isEmpty(), "the run logged something");
        for (String line : json) {
            assertTrue(line.startsWith("{"), "not JSON: " + line + "\nin\n" + String.join("\n", json));
            assertTrue(new ObjectMapper().readTree(line).isObject(), line);
        }
    }

    @Test
    void shouldLogTheStartAndTheFailureThroughTheMvsinkLogger() throws Exception {
        List<JsonNode> mvsink = new ArrayList<>();
        for (String line : json) {
            JsonNode node = new ObjectMapper().readTree(line);
            if ("mvsink".equals(node.path("loggerName").asText())) {
                mvsink.add(node);
            }
        }
        assertTrue(mvsink.stream().anyMatch(n -> n.path("level").asText().equals("INFO")
            && n.path("formattedMessage").asText().equals("starting") && n.at("/mdc/shard").asText().equals("orders")),
            String.join("\n", json));
        assertEquals(1, mvsink.stream().filter(n -> n.path("level").asText().equals("ERROR")).count(),
            String.join("\n", json));
    }

    @Test
    void shouldStartEveryTextLineWithAnIsoDate() {
        assertFalse(text.isEmpty(), "the run logged something");
        for (String line : text) {
            assertTrue(line.matches(ISO_DATE), "no date: " + line + "\nin\n" + String.join("\n", text));
        }
    }

    @Test
    void shouldSayOnceWhichEndpointAndOptionFailedWithoutTheAzureSdksErrors() throws Exception {
        for (String line : json) {
            String logger = new ObjectMapper().readTree(line).path("loggerName").asText();
            assertFalse(logger.startsWith("com.azure"), "an Azure SDK line: " + line);
        }
        List<String> errors = text.stream().filter(line -> line.contains(" ERROR ")).toList();
        assertEquals(1, errors.size(), String.join("\n", text));
        String error = errors.get(0);
        assertTrue(error.contains(ENDPOINT), "names the endpoint: " + error);
        assertTrue(error.contains("blob.connection.string"), "names the option: " + error);
        assertTrue(error.contains("Connection refused") || error.contains("ConnectException"), error);
        for (List<String> lines : List.of(json, text)) {
            assertFalse(String.join("\n", lines).contains(ACCOUNT_KEY), "the account key leaked");
        }
    }

    /** The lines (stdout and stderr) of {@code mvsink run} against the unreachable account, in {@code format}. */
    private static List<String> run(Path dir, String format) throws IOException, InterruptedException {
        Path out = dir.resolve(format + ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=" + shippedLogback(),
            Main.class.getName(), "run", "--set", "bootstrap.servers=127.0.0.1:1", "--set", "corrections.topic=orders",
            "--set", "schema.registry.url=http://127.0.0.1:1", "--set", "blob.connection.string=" + CONNECTION_STRING));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("MVSINK_") || name.startsWith("AZURE_"));
        env.put("MVSINK_LOG_FORMAT", format);
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
