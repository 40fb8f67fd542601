package io.mvsink.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.status.NopStatusListener;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The logback.xml the jar ships (README "Logging"), loaded into a context of its own as the jar
 * would load it: the layout MVSINK_LOG_FORMAT picks, the shard from the MDC in it, and the levels.
 */
class ShippedLoggingTest {
    private static final String FORMAT = "MVSINK_LOG_FORMAT";
    private static final String LEVEL = "MVSINK_LOG_LEVEL";
    private static final String AZURE_LEVEL = "MVSINK_AZURE_LOG_LEVEL";
    /** ISO-8601: the local date and time to the millisecond, with the offset. */
    private static final String ISO_DATE = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d)";

    @Test
    void shouldWriteOneJsonObjectPerLineWithTheShardAndTheMessage() throws Exception {
        LoggerContext context = shipped(Map.of(FORMAT, "json"));
        ByteArrayOutputStream out = capture(context, "json");
        assertNull(root(context).getAppender("text"), "json replaces the text appender");

        try (ShardLogContext.Scope scope = ShardLogContext.enter("orders")) {
            context.getLogger("io.mvsink.MvsinkApp").info("started over {} partitions of {}", 4, "orders-corrections");
        }

        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.chars().filter(c -> c == '\n').count(), text);
        assertTrue(text.endsWith("\n"), text);
        JsonNode line = new ObjectMapper().readTree(text);
        assertEquals("orders", line.at("/mdc/shard").asText(), text);
        assertEquals("started over 4 partitions of orders-corrections", line.get("formattedMessage").asText(), text);
        assertEquals("INFO", line.get("level").asText(), text);
        assertEquals("io.mvsink.MvsinkApp", line.get("loggerName").asText(), text);
    }

    @Test
    void shouldShowTheShardInTheTextLayoutOnlyWhenTheMdcHasOne() throws Exception {
        LoggerContext context = shipped(Map.of(FORMAT, "text"));
        ByteArrayOutputStream out = capture(context, "text");
        assertNull(root(context).getAppender("json"), "text replaces the json appender");

        try (ShardLogContext.Scope scope = ShardLogContext.enter("orders")) {
            context.getLogger("io.mvsink.gc.GcService").info("blob gc off");
        }
        context.getLogger("io.mvsink.cli.Main").info("no shard here");

        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length, String.join("\n", lines));
        assertTrue(lines[0].matches(ISO_DATE + " \\[.+] INFO  GcService shard orders - blob gc off"), lines[0]);
        assertTrue(lines[1].matches(ISO_DATE + " \\[.+] INFO  Main - no shard here"), lines[1]);
    }

    @Test
    void shouldShowATasksPartitionAfterItsShardAndRestoreTheMdcAfterward() throws Exception {
        LoggerContext context = shipped(Map.of(FORMAT, "text"));
        ByteArrayOutputStream out = capture(context, "text");

        try (ShardLogContext.Scope scope = ShardLogContext.enter("orders", 3)) {
            context.getLogger("io.mvsink.protocol.Contributor").info("contributing again");
        }
        assertNull(MDC.get(ShardLogContext.PARTITION), "the thread keeps no partition after the work");
        assertNull(MDC.get(ShardLogContext.KEY), "nor a shard");

        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(1, lines.length, String.join("\n", lines));
        assertTrue(lines[0].matches(ISO_DATE + " \\[.+] INFO  Contributor shard orders partition 3 - contributing again"),
            lines[0]);
    }

    @Test
    void shouldLogLibrariesAtWarnAndMvsinkAtInfoByDefault() throws Exception {
        assumeTrue(System.getenv(LEVEL) == null, "the environment sets " + LEVEL);
        LoggerContext context = shipped(Map.of());

        for (String library : new String[] {"org.apache.kafka.clients.consumer.KafkaConsumer",
            "org.apache.kafka.streams.KafkaStreams", "org.apache.avro.Schema"}) {
            assertEquals(Level.WARN, context.getLogger(library).getEffectiveLevel(), library);
        }
        assertEquals(Level.INFO, context.getLogger("io.mvsink.MvsinkApp").getEffectiveLevel());
        assertEquals(Level.INFO, context.getLogger("io.mvsink.protocol.Contributor").getEffectiveLevel());
        assertEquals(Level.INFO, context.getLogger("mvsink").getEffectiveLevel(), "the lifecycle and fatal lines");
        for (String azure : new String[] {"com.azure.storage.blob.BlobContainerClient",
            "com.azure.storage.common.policy.RequestRetryPolicy", "com.azure.identity.DefaultAzureCredential"}) {
            assertEquals(Level.OFF, context.getLogger(azure).getEffectiveLevel(), azure + ": mvsink reports what it throws");
        }
        assertEquals(Level.ERROR, context.getLogger("org.apache.kafka.streams.StreamsConfig").getEffectiveLevel());
        assertEquals(Level.OFF, context.getLogger("reactor.core.publisher.Operators").getEffectiveLevel());
        assertTrue(context.getStatusManager().getCopyOfStatusListenerList().stream()
            .anyMatch(l -> l instanceof NopStatusListener), "logback says nothing of itself at start");
        assertFalse(new StatusUtil(context).hasXMLParsingErrors(0), "logback.xml parses");
        assertTrue(new StatusUtil(context).getHighestLevel(0) < Status.ERROR, "no configuration errors");
    }

    @Test
    void shouldSetMvsinksLevelFromTheLevelVariable() throws Exception {
        LoggerContext context = shipped(Map.of(LEVEL, "DEBUG"));

        assertEquals(Level.DEBUG, context.getLogger("io.mvsink.topology.AppenderProcessor").getEffectiveLevel());
        assertEquals(Level.WARN, context.getLogger("org.apache.kafka.clients.producer.KafkaProducer").getEffectiveLevel());
        assertEquals(Level.DEBUG, context.getLogger("mvsink").getEffectiveLevel());
    }

    @Test
    void shouldSetTheAzureSdksLevelFromItsVariable() throws Exception {
        LoggerContext context = shipped(Map.of(AZURE_LEVEL, "WARN"));

        assertEquals(Level.WARN, context.getLogger("com.azure.storage.blob.BlobContainerClient").getEffectiveLevel());
        assertEquals(Level.INFO, context.getLogger("io.mvsink.blob.RetryLoop").getEffectiveLevel());
    }

    @Test
    void shouldQuietTheLibrariesInTheTestJvmsAsTheJarDoes() throws Exception {
        LoggerContext shipped = shipped(Map.of());
        LoggerContext tests = configured("/logback-test.xml", Map.of());

        int libraries = 0;
        for (ch.qos.logback.classic.Logger logger : shipped.getLoggerList()) {
            String name = logger.getName();
            if (logger.getLevel() != null && !name.startsWith("io.mvsink") && !name.equals("mvsink")) {
                assertEquals(logger.getLevel(), tests.getLogger(name).getLevel(), name);
                libraries++;
            }
        }
        assertEquals(6, libraries, "the root and the five quieted libraries");
        assertEquals(Level.WARN, tests.getLogger("io.mvsink.MvsinkApp").getEffectiveLevel(), "tests log warnings only");
    }

    @Test
    void shouldRestoreTheShardThatWasThereWhenAScopeCloses() {
        try (ShardLogContext.Scope outer = ShardLogContext.enter("orders")) {
            try (ShardLogContext.Scope inner = ShardLogContext.enter("payments")) {
                assertEquals("payments", MDC.get(ShardLogContext.KEY));
            }
            assertEquals("orders", MDC.get(ShardLogContext.KEY));
            ShardLogContext.wrap("refunds", () -> assertEquals("refunds", MDC.get(ShardLogContext.KEY))).run();
            assertEquals("orders", MDC.get(ShardLogContext.KEY));
        }
        assertNull(MDC.get(ShardLogContext.KEY));
    }

    /** A context configured by the shipped logback.xml with these system properties set meanwhile. */
    private static LoggerContext shipped(Map<String, String> properties) throws Exception {
        return configured("/logback.xml", properties);
    }

    private static LoggerContext configured(String resource, Map<String, String> properties) throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter());
        Map<String, String> previous = new java.util.HashMap<>();
        for (String name : new String[] {FORMAT, LEVEL, AZURE_LEVEL}) {
            previous.put(name, System.getProperty(name));
            System.clearProperty(name);
        }
        properties.forEach(System::setProperty);
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(ShippedLoggingTest.class.getResource(resource));
        } finally {
            previous.forEach((name, value) -> {
                if (value == null) {
                    System.clearProperty(name);
                } else {
                    System.setProperty(name, value);
                }
            });
        }
        return context;
    }

    private static ch.qos.logback.classic.Logger root(LoggerContext context) {
        return context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    /** What the root's appender {@code name} writes, instead of stderr; fails if the root has no such appender. */
    private static ByteArrayOutputStream capture(LoggerContext context, String name) {
        var appender = root(context).getAppender(name);
        assertTrue(appender instanceof OutputStreamAppender, "the root logs to appender " + name + ": " + appender);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ((OutputStreamAppender<?>) appender).setOutputStream(out);
        return out;
    }
}
