package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.config.MvsinkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsTest {

    @TempDir
    Path dir;

    @Test
    void shouldLetTheEnvironmentWinOverTheFileAndSetAndFlagsWinOverTheEnvironment() throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "bootstrap.servers=file:1\ncorrections.topic=file\nnum.stream.threads=1\n"
            + "schema.registry.url=http://file\n");
        Settings settings = new Settings();
        settings.file = file;
        settings.overrides = Map.of(MvsinkConfig.CORRECTIONS_TOPIC, "set");
        settings.registryUrl = "http://flag";

        Properties props = settings.properties(Map.of(
            "MVSINK_NUM_STREAM_THREADS", "4",
            "MVSINK_CORRECTIONS_TOPIC", "env",
            "MVSINK_SCHEMA_REGISTRY_URL", "http://env",
            "MVSINK_STREAMS_COMMIT_INTERVAL_MS", "200"));

        assertEquals("file:1", props.get(MvsinkConfig.BOOTSTRAP_SERVERS));
        assertEquals("4", props.get(MvsinkConfig.NUM_STREAM_THREADS));
        assertEquals("set", props.get(MvsinkConfig.CORRECTIONS_TOPIC));
        assertEquals("http://flag", props.get(MvsinkConfig.REGISTRY_URL));
        assertEquals("200", props.get("streams.commit.interval.ms"));
    }

    @Test
    void shouldFailOnAnUnknownPrefixedVariable() {
        assertThrows(ConfigException.class, () -> new Settings().properties(Map.of("MVSINK_NUM_THREADS", "4")));
    }

    @Test
    void shouldReportTheErrorsOfEverySourceTogether() throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "bootstrap.servers=kafka:9092\ncorrections.topic=orders\nbatch.intervl.ms=1000\n"
            + "schema.registry.url=http://registry\nblob.connection.string=UseDevelopmentStorage=true\n");
        Settings settings = new Settings();
        settings.file = file;
        settings.overrides = Map.of("streams.transaction.timeout.ms", "abc");

        ConfigException e = assertThrows(ConfigException.class,
            () -> settings.config(Map.of("MVSINK_NUM_STREAM_THREAD", "2")));

        assertTrue(e.getMessage().startsWith("3 configuration errors"), e.getMessage());
        assertTrue(e.getMessage().contains("batch.intervl.ms") && e.getMessage().contains("did you mean batch.interval.ms?"),
            e.getMessage());
        assertTrue(e.getMessage().contains("streams.transaction.timeout.ms") && e.getMessage().contains("abc"),
            e.getMessage());
        assertTrue(e.getMessage().contains("MVSINK_NUM_STREAM_THREAD ")
            && e.getMessage().contains("did you mean MVSINK_NUM_STREAM_THREADS?"), e.getMessage());
    }
}
