package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class EnvironmentOptionsTest {

    @Test
    void shouldNameEveryDeclaredOptionsVariableByTheRule() {
        assertEquals("MVSINK_NUM_STREAM_THREADS", EnvironmentOptions.variableOf(MvsinkConfig.NUM_STREAM_THREADS));
        assertEquals("MVSINK_SCHEMA_REGISTRY_URL", EnvironmentOptions.variableOf(MvsinkConfig.REGISTRY_URL));
        assertEquals("MVSINK_A_B_C", EnvironmentOptions.variableOf("a.b.c"));
        for (String option : MvsinkConfig.DEFINITION.names()) {
            assertEquals(Map.of(option, "v"),
                EnvironmentOptions.fromEnvironment(Map.of(EnvironmentOptions.variableOf(option), "v")), option);
        }
    }

    @Test
    void shouldMapStreamsVariablesToDottedLowerCasePassThroughOptions() {
        Map<String, String> options = EnvironmentOptions.fromEnvironment(Map.of(
            "MVSINK_STREAMS_COMMIT_INTERVAL_MS", "200",
            "MVSINK_STREAMS_PRODUCER_LINGER_MS", "5"));

        assertEquals(Map.of("streams.commit.interval.ms", "200", "streams.producer.linger.ms", "5"), options);
    }

    @Test
    void shouldSpellUnderscoresAndDashesOfStreamsOptionsByDoubledAndTripledUnderscores() {
        Map<String, String> options = EnvironmentOptions.fromEnvironment(Map.of(
            "MVSINK_STREAMS_CLIENT_TAG_RACK__ID", "r1",
            "MVSINK_STREAMS_CLIENT_TAG_MY___ZONE", "2",
            "MVSINK_STREAMS_CLIENT_TAG_A__B___C_D", "x"));

        assertEquals(Map.of("streams.client.tag.rack_id", "r1", "streams.client.tag.my-zone", "2",
            "streams.client.tag.a_b-c.d", "x"), options);
    }

    @Test
    void shouldNameOptionsWithUnderscoresAndDashesByTheSameEscaping() {
        assertEquals("MVSINK_A_B___C__D", EnvironmentOptions.variableOf("a.b-c_d"));
        assertEquals("MVSINK_STREAMS_CLIENT_TAG_MY___ZONE", EnvironmentOptions.variableOf("streams.client.tag.my-zone"));
    }

    @Test
    void shouldRefuseAnUnknownVariableNamingTheNearestKnownOne() {
        ConfigException e = assertThrows(ConfigException.class,
            () -> EnvironmentOptions.fromEnvironment(Map.of("MVSINK_BATCH_INTERVL_MS", "1000")));

        assertTrue(e.getMessage().contains("MVSINK_BATCH_INTERVL_MS")
            && e.getMessage().contains("did you mean MVSINK_BATCH_INTERVAL_MS?"), e.getMessage());
    }

    @Test
    void shouldRefuseAStreamsVariableThatNamesNoKafkaStreamsOption() {
        ConfigException e = assertThrows(ConfigException.class,
            () -> EnvironmentOptions.fromEnvironment(Map.of("MVSINK_STREAMS_RACK__AWARE_ASSIGNMENT_TAGS", "zone")));

        assertTrue(e.getMessage().contains("MVSINK_STREAMS_RACK__AWARE_ASSIGNMENT_TAGS")
            && e.getMessage().contains("did you mean MVSINK_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS?"), e.getMessage());
        assertEquals(Map.of("streams.rack.aware.assignment.tags", "zone"),
            EnvironmentOptions.fromEnvironment(Map.of("MVSINK_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS", "zone")));
    }

    @Test
    void shouldIgnoreVariablesWithoutThePrefix() {
        Map<String, String> options = EnvironmentOptions.fromEnvironment(Map.of(
            "PATH", "/usr/bin", "BOOTSTRAP_SERVERS", "x:1", "mvsink_bootstrap_servers", "y:1", "JAVA_TOOL_OPTIONS", ""));

        assertEquals(Map.of(), options);
    }

    @Test
    void shouldReportEveryUnknownPrefixedVariableByName() {
        Map<String, String> env = new HashMap<>();
        env.put("MVSINK_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("MVSINK_BOOTSTRAP_SERVER", "kafka:9092");
        env.put("MVSINK_NUM_THREADS", "4");

        ConfigException e = assertThrows(ConfigException.class, () -> EnvironmentOptions.fromEnvironment(env));

        assertTrue(e.getMessage().contains("MVSINK_BOOTSTRAP_SERVER ")
            && e.getMessage().contains("did you mean MVSINK_BOOTSTRAP_SERVERS?"), e.getMessage());
        assertTrue(e.getMessage().contains("MVSINK_NUM_THREADS"), e.getMessage());
    }

    @Test
    void shouldRejectMalformedStreamsVariables() {
        for (String variable : new String[] {"MVSINK_STREAMS_", "MVSINK_STREAMS__X", "MVSINK_STREAMS_X____Y",
            "MVSINK_STREAMS_X_", "MVSINK_STREAMS_lower", "MVSINK_"}) {
            ConfigException e = assertThrows(ConfigException.class,
                () -> EnvironmentOptions.fromEnvironment(Map.of(variable, "1")), variable);
            assertTrue(e.getMessage().contains(variable), e.getMessage());
        }
    }

    @Test
    void shouldCarrySecretsWithoutShowingThemInErrors() {
        Map<String, String> env = Map.of(
            "MVSINK_BLOB_CONNECTION_STRING", "UseDevelopmentStorage=true",
            "MVSINK_SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO", "user:s3cret",
            "MVSINK_BOOTSTRAP_SERVERS", "kafka:9092",
            "MVSINK_CORRECTIONS_TOPIC", "orders",
            "MVSINK_SCHEMA_REGISTRY_URL", "http://registry:8080/apis/ccompat/v7");

        MvsinkConfig config = new MvsinkConfig(EnvironmentOptions.fromEnvironment(env));

        assertEquals("UseDevelopmentStorage=true", config.blobConnectionString().value());
        assertEquals("user:s3cret", config.getPassword(MvsinkConfig.REGISTRY_BASIC_AUTH).value());

        Map<String, String> typo = new HashMap<>(env);
        typo.put("MVSINK_BLOB_CONECTION_STRING", "AccountKey=s3cret");
        ConfigException e = assertThrows(ConfigException.class, () -> EnvironmentOptions.fromEnvironment(typo));
        assertTrue(e.getMessage().contains("MVSINK_BLOB_CONECTION_STRING"), e.getMessage());
        assertTrue(!e.getMessage().contains("s3cret"), e.getMessage());
    }

    @Test
    void shouldLeaveTheLoggingVariablesToLogbackButCheckTheirValues() {
        Map<String, String> options = EnvironmentOptions.fromEnvironment(Map.of(
            "MVSINK_LOG_FORMAT", "json", "MVSINK_LOG_LEVEL", "debug", "MVSINK_AZURE_LOG_LEVEL", "warn",
            "MVSINK_LAUNCH_LOG", "DEBUG",
            "MVSINK_BOOTSTRAP_SERVERS", "kafka:9092"));

        assertEquals(Map.of("bootstrap.servers", "kafka:9092"), options);
        Map<String, String> bad = Map.of("MVSINK_LOG_FORMAT", "JSON", "MVSINK_LOG_LEVEL", "loud",
            "MVSINK_AZURE_LOG_LEVEL", "verbose", "MVSINK_LAUNCH_LOG", "yes");
        bad.forEach((variable, value) -> {
            ConfigException e = assertThrows(ConfigException.class,
                () -> EnvironmentOptions.fromEnvironment(Map.of(variable, value)), variable);
            assertTrue(e.getMessage().contains(variable) && e.getMessage().contains(value), e.getMessage());
        });
    }
}
