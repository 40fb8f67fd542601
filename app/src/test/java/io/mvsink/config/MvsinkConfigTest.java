package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;

class MvsinkConfigTest {

    private static Map<String, Object> required() {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        return props;
    }

    private static MvsinkConfig config(String... overrides) {
        Map<String, Object> props = required();
        for (int i = 0; i < overrides.length; i += 2) {
            props.put(overrides[i], overrides[i + 1]);
        }
        return new MvsinkConfig(props);
    }

    @Test
    void shouldDefaultEverythingButTheRequiredOptions() {
        MvsinkConfig config = config();

        assertEquals("mvsink", config.applicationId());
        assertEquals("orders", config.correctionsTopic());
        assertEquals("orders", config.shard());
        assertEquals("mvsink-reports", config.reportsTopic());
        assertEquals("mvsink-consensus", config.consensusTopic());
        assertEquals("mvsink-dead-letter", config.deadLetterTopic());
        assertEquals("orders/", config.blobPrefix());
        assertEquals(1000L, config.batchIntervalMs());
        assertEquals(MvsinkConfig.MODE_BARRIER, config.getString(MvsinkConfig.COALESCING_MODE));
        assertEquals(2000L, config.getLong(MvsinkConfig.BARRIER_TIMEOUT_MS));
        assertEquals(60_000L, config.getLong(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS));
        assertEquals("mvsink", config.getString(MvsinkConfig.BLOB_CONTAINER));
        assertEquals("deflate", config.getString(MvsinkConfig.BLOB_CODEC));
        assertEquals(8L * 1024 * 1024, config.getLong(MvsinkConfig.BLOB_TARGET_BYTES));
        assertEquals(2, config.getInt(MvsinkConfig.BUILDER_THREADS));
        assertEquals(64L * 1024 * 1024, config.getLong(MvsinkConfig.BUILDER_MAX_QUEUED_BYTES));
        assertEquals("", config.getPassword(MvsinkConfig.REGISTRY_BASIC_AUTH).value());
        assertEquals("UseDevelopmentStorage=true", config.blobConnectionString().value());
        assertEquals(Map.of(), config.streamsOverrides());
    }

    @Test
    void shouldDeriveTopicNamesFromTheApplicationIdAndPrefixFromTheShard() {
        MvsinkConfig config = config(MvsinkConfig.APPLICATION_ID, "sink-7", MvsinkConfig.SHARD_NAME, "orders.v2");

        assertEquals("sink-7-reports", config.reportsTopic());
        assertEquals("sink-7-consensus", config.consensusTopic());
        assertEquals("sink-7-dead-letter", config.deadLetterTopic());
        assertEquals("orders.v2", config.shard());
        assertEquals("orders.v2/", config.blobPrefix());
    }

    @Test
    void shouldUseExplicitTopicNamesAndPrefix() {
        MvsinkConfig config = config(MvsinkConfig.REPORTS_TOPIC, "r", MvsinkConfig.CONSENSUS_TOPIC, "c",
            MvsinkConfig.DEAD_LETTER_TOPIC, "d", MvsinkConfig.BLOB_PREFIX, "p/");

        assertEquals("r", config.reportsTopic());
        assertEquals("c", config.consensusTopic());
        assertEquals("d", config.deadLetterTopic());
        assertEquals("p/", config.blobPrefix());
    }

    @Test
    void shouldPassStreamsPrefixedOptionsThroughUnprefixed() {
        Properties properties = new Properties();
        properties.putAll(required());
        properties.put("streams.commit.interval.ms", "50");
        properties.put("streams.producer.linger.ms", "5");

        Map<String, Object> overrides = MvsinkConfig.fromProperties(properties).streamsOverrides();

        assertEquals(Map.of("commit.interval.ms", "50", "producer.linger.ms", "5"), overrides);
    }

    @Test
    void shouldNameTheOptionOfEveryBadValue() {
        assertRefused(MvsinkConfig.BATCH_INTERVAL_MS, "0");
        assertRefused(MvsinkConfig.BATCH_INTERVAL_MS, "soon");
        assertRefused(MvsinkConfig.BLOB_CONTAINER, "UPPER");
        assertRefused(MvsinkConfig.BLOB_CONTAINER, "a--b");
        assertRefused(MvsinkConfig.BLOB_CONTAINER, "ab");
        assertRefused(MvsinkConfig.COALESCING_MODE, "bogus");
        assertRefused(MvsinkConfig.BLOB_CODEC, "gzip");
        assertRefused(MvsinkConfig.BLOB_TARGET_BYTES, "1023");
        assertRefused(MvsinkConfig.BUILDER_THREADS, "0");
        assertRefused(MvsinkConfig.BUILDER_MAX_QUEUED_BYTES, "0");
        assertRefused(MvsinkConfig.BARRIER_TIMEOUT_MS, "0");
        assertRefused(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS, "10");
        assertRefused(MvsinkConfig.NUM_STREAM_THREADS, "0");
        assertRefused(MvsinkConfig.APPLICATION_ID, "my app");
        assertRefused(MvsinkConfig.SHARD_NAME, "a/b");
        assertRefused(MvsinkConfig.CORRECTIONS_TOPIC, "");
        assertRefused(MvsinkConfig.REGISTRY_URL, "");
    }

    @Test
    void shouldRefuseAProcessingGuaranteeOtherThanExactlyOnce() {
        for (String guarantee : new String[] {"at_least_once", "exactly_once", "exactly_once_beta"}) {
            ConfigException e = assertThrows(ConfigException.class,
                () -> config("streams.processing.guarantee", guarantee), guarantee);
            assertTrue(e.getMessage().contains("streams.processing.guarantee"), e.getMessage());
            assertTrue(e.getMessage().contains("exactly_once_v2"), e.getMessage());
        }
        assertEquals("exactly_once_v2",
            config("streams.processing.guarantee", "exactly_once_v2").streamsOverrides().get("processing.guarantee"));
    }

    @Test
    void shouldRefuseAMissingRequiredOption() {
        for (String option : required().keySet()) {
            if (option.equals(MvsinkConfig.BLOB_CONNECTION_STRING)) {
                continue; // optional: one of three ways to reach storage, see BlobAccessTest
            }
            Map<String, Object> props = required();
            props.remove(option);
            ConfigException e = assertThrows(ConfigException.class, () -> new MvsinkConfig(props), option);
            assertTrue(e.getMessage().contains(option), e.getMessage());
        }
    }

    @Test
    void shouldRefuseBasicAuthWithoutAColonAndNotRevealIt() {
        for (String secret : new String[] {"hunter2secret", ":hunter2secret"}) {
            ConfigException e = assertRefused(MvsinkConfig.REGISTRY_BASIC_AUTH, secret);
            assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        }
        assertEquals("user:pw", config(MvsinkConfig.REGISTRY_BASIC_AUTH, "user:pw")
            .getPassword(MvsinkConfig.REGISTRY_BASIC_AUTH).value());
    }

    @Test
    void shouldRefuseACorrectionsTopicThatIsAlsoTheConsensusTopic() {
        assertRefused(MvsinkConfig.CORRECTIONS_TOPIC, "mvsink-consensus");
        assertRefused(MvsinkConfig.CORRECTIONS_TOPIC, "orders", MvsinkConfig.REPORTS_TOPIC, "orders");
    }

    @Test
    void shouldRefuseATopicReplicationThatNoWriteCouldMeet() {
        assertRefused(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, "3", MvsinkConfig.TOPICS_REPLICATION_FACTOR, "2");
        assertRefused(MvsinkConfig.TOPICS_REPLICATION_FACTOR, "0");
        assertRefused(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, "-2");
        MvsinkConfig config = config(MvsinkConfig.TOPICS_REPLICATION_FACTOR, "3",
            MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, "2");
        assertEquals(3, config.getInt(MvsinkConfig.TOPICS_REPLICATION_FACTOR));
        assertEquals(-1, config().getInt(MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS), "the broker's default");
    }

    @Test
    void shouldRefuseACorrectionsTopicThatIsAlsoTheDerivedReportsTopic() {
        assertRefused(MvsinkConfig.CORRECTIONS_TOPIC, "mvsink-reports");
    }

    @Test
    void shouldRefuseAGcGraceTooShortForTheTransactionAndBarrierTimeouts() {
        // 4 x (10 s transaction timeout + 2 s barrier + 0.25 s linger + 2 s skew) = 57 s
        assertEquals(57_000, config().leastGcGraceMs());
        ConfigException e = assertRefused(MvsinkConfig.GC_GRACE_MS, "56999");
        assertTrue(e.getMessage().contains("57000"), e.getMessage());
        config(MvsinkConfig.GC_GRACE_MS, "57000");
        // a shorter transaction timeout and barrier allow a shorter grace: 4 x (5 + 0.2 + 0.25 + 2) s
        config(MvsinkConfig.GC_GRACE_MS, "29800", "streams.producer.transaction.timeout.ms", "5000",
            MvsinkConfig.BARRIER_TIMEOUT_MS, "200");
        assertRefused(MvsinkConfig.GC_GRACE_MS, "29799", "streams.producer.transaction.timeout.ms", "5000",
            MvsinkConfig.BARRIER_TIMEOUT_MS, "200");
    }

    @Test
    void shouldRefuseACustomBlobPrefixWithoutATrailingSlash() {
        ConfigException e = assertRefused(MvsinkConfig.BLOB_PREFIX, "orders");
        assertTrue(e.getMessage().contains("must end with '/'"), e.getMessage());
        assertEquals("shared/orders/", config(MvsinkConfig.BLOB_PREFIX, "shared/orders/").blobPrefix());
    }

    @Test
    void shouldRefuseAConsensusTopicThatIsNotATopicName() {
        // it names the blob owner (BlobOwner), stored in blob metadata
        assertEquals("blue-consensus", config(MvsinkConfig.APPLICATION_ID, "blue").consensusTopic());
        assertRefused(MvsinkConfig.CONSENSUS_TOPIC, "not a topic");
    }

    @Test
    void shouldRefuseAnUnknownOptionNamingTheNearestKnownOneButNotItsValue() {
        ConfigException typo = assertThrows(ConfigException.class, () -> config("batch.intervl.ms", "1000"));
        assertTrue(typo.getMessage().contains("batch.intervl.ms") && typo.getMessage().contains("did you mean "
            + MvsinkConfig.BATCH_INTERVAL_MS + "?"), typo.getMessage());

        ConfigException secret = assertThrows(ConfigException.class, () -> config("blob.conection.string", "s3cret"));
        assertTrue(secret.getMessage().contains(MvsinkConfig.BLOB_CONNECTION_STRING), secret.getMessage());
        assertFalse(secret.getMessage().contains("s3cret"), secret.getMessage());

        ConfigException unprefixed = assertThrows(ConfigException.class, () -> config("commit.interval.ms", "100"));
        assertTrue(unprefixed.getMessage().contains("did you mean streams.commit.interval.ms?"), unprefixed.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownStreamsOptionNamingTheNearestKafkaOne() {
        ConfigException typo = assertThrows(ConfigException.class, () -> config("streams.comit.interval.ms", "100"));
        assertTrue(typo.getMessage().contains("streams.comit.interval.ms")
            && typo.getMessage().contains("did you mean streams.commit.interval.ms?"), typo.getMessage());

        for (String unknown : new String[] {"streams.rack_aware.assignment.tags", "streams.producer.lingr.ms",
            "streams.topic.no.such.config", "streams.main.consumer.batch.size", "streams.my-plugin.level"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> config(unknown, "1"), unknown);
            assertTrue(e.getMessage().contains(unknown), e.getMessage());
        }
    }

    @Test
    void shouldAcceptWhatKafkaStreamsAcceptsUnderItsClientAndTopicPrefixes() {
        Map<String, Object> overrides = config(
            "streams.producer.linger.ms", "5",
            "streams.producer.transaction.timeout.ms", "5000",
            "streams.consumer.max.poll.records", "100",
            "streams.main.consumer.fetch.min.bytes", "1",
            "streams.restore.consumer.max.poll.records", "500",
            "streams.global.consumer.client.rack", "eu-1",
            "streams.admin.retries", "3",
            "streams.topic.min.insync.replicas", "2",
            "streams.client.tag.zone", "eu-1a",
            "streams.rack.aware.assignment.tags", "zone",
            "streams.transaction.timeout.ms", "20000",
            "streams.security.protocol", "SASL_SSL",
            "streams.metrics.context.team", "sink").streamsOverrides();

        assertEquals(13, overrides.size(), overrides.toString());
    }

    @Test
    void shouldNameThePassThroughOptionOfABadValue() {
        ConfigException e = assertRefused("streams.transaction.timeout.ms", "abc");
        assertTrue(e.getMessage().contains("abc"), e.getMessage());
        assertRefused("streams.producer.transaction.timeout.ms", "soon");
        assertRefused("streams.commit.interval.ms", "-5");
        assertRefused("streams.producer.acks", "some");
        assertRefused("streams.main.consumer.max.poll.records", "0");
    }

    @Test
    void shouldReportEveryErrorOfAConfigurationTogether() {
        Map<String, Object> props = required();
        props.remove(MvsinkConfig.CORRECTIONS_TOPIC);
        props.put("batch.intervl.ms", "1000");
        props.put(MvsinkConfig.NUM_STREAM_THREADS, "0");
        props.put("streams.transaction.timeout.ms", "abc");
        props.put("streams.comit.interval.ms", "100");

        ConfigException e = assertThrows(ConfigException.class, () -> new MvsinkConfig(props));

        for (String option : new String[] {MvsinkConfig.CORRECTIONS_TOPIC, "batch.intervl.ms",
            MvsinkConfig.NUM_STREAM_THREADS, "streams.transaction.timeout.ms", "streams.comit.interval.ms"}) {
            assertTrue(e.getMessage().contains(option), option + ": " + e.getMessage());
        }
        assertTrue(e.getMessage().startsWith("5 configuration errors"), e.getMessage());
    }

    @Test
    void shouldReportEveryRuleAcrossOptionsTogether() {
        ConfigException e = assertThrows(ConfigException.class, () -> config(MvsinkConfig.SHARD_NAME, "a/b",
            MvsinkConfig.CONSENSUS_TOPIC, "not a topic", MvsinkConfig.ROW_RECORD_NAME, "io.example.Row",
            MvsinkConfig.GC_GRACE_MS, "1000"));

        for (String option : new String[] {MvsinkConfig.SHARD_NAME, MvsinkConfig.CONSENSUS_TOPIC,
            MvsinkConfig.ROW_RECORD_NAME, MvsinkConfig.GC_GRACE_MS}) {
            assertTrue(e.getMessage().contains(option), option + ": " + e.getMessage());
        }
        assertTrue(e.getMessage().startsWith("4 configuration errors"), e.getMessage());
    }

    @Test
    void shouldBoundRocksDbBy256MiBUnlessTold() {
        assertEquals(256L * 1024 * 1024, config().getLong(MvsinkConfig.ROCKSDB_MEMORY_BYTES));
        assertEquals(0L, config(MvsinkConfig.ROCKSDB_MEMORY_BYTES, "0").getLong(MvsinkConfig.ROCKSDB_MEMORY_BYTES));
        ConfigException small = assertThrows(ConfigException.class,
            () -> config(MvsinkConfig.ROCKSDB_MEMORY_BYTES, "1048576"));
        assertTrue(small.getMessage().contains(MvsinkConfig.ROCKSDB_MEMORY_BYTES), small.getMessage());
    }

    private static final String SETTER = MySetter.class.getName();

    /** A user's own RocksDB config setter. */
    public static final class MySetter implements RocksDBConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        }

        @Override
        public void close(String storeName, Options options) {
        }
    }

    @Test
    void shouldRefuseAUsersRocksDbConfigSetterUnderTheBound() {
        ConfigException e = assertThrows(ConfigException.class,
            () -> config("streams.rocksdb.config.setter", SETTER));
        assertTrue(e.getMessage().contains("streams.rocksdb.config.setter")
            && e.getMessage().contains(MvsinkConfig.ROCKSDB_MEMORY_BYTES + "=0"), e.getMessage());
        assertEquals(SETTER, config("streams.rocksdb.config.setter", SETTER,
            MvsinkConfig.ROCKSDB_MEMORY_BYTES, "0").streamsOverrides().get("rocksdb.config.setter"));
    }

    private static ConfigException assertRefused(String option, String value, String... more) {
        Map<String, Object> props = required();
        props.put(option, value);
        for (int i = 0; i < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        ConfigException e = assertThrows(ConfigException.class, () -> new MvsinkConfig(props), option + "=" + value);
        assertTrue(e.getMessage().contains(option), option + "=" + value + ": " + e.getMessage());
        return e;
    }

    @Test
    void shouldHandKafkaSecuritySettingsToMvsinksOwnClients() {
        Map<String, String> props = new java.util.HashMap<>(Map.of(
            MvsinkConfig.BOOTSTRAP_SERVERS, "kafka:9093",
            MvsinkConfig.CORRECTIONS_TOPIC, "c",
            MvsinkConfig.REGISTRY_URL, "http://r",
            MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true"));
        props.put("streams.security.protocol", "SASL_SSL");
        props.put("streams.sasl.mechanism", "PLAIN");
        props.put("streams.num.standby.replicas", "1");
        Map<String, Object> client = new MvsinkConfig(props).kafkaClientProps();
        assertEquals("kafka:9093", client.get("bootstrap.servers"));
        assertEquals("SASL_SSL", client.get("security.protocol"));
        assertEquals("PLAIN", client.get("sasl.mechanism"));
        assertTrue(!client.containsKey("num.standby.replicas"), "Streams-only settings stay with Kafka Streams");
    }
}
