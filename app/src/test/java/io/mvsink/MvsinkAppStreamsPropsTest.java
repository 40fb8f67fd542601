package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.mvsink.config.MvsinkConfig;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The Kafka Streams properties the app starts its stream threads with. */
class MvsinkAppStreamsPropsTest {
    private static final String MAIN_FETCH =
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);

    private static Properties streamsProps(String... keyValues) {
        Properties props = new Properties();
        props.put(MvsinkConfig.APPLICATION_ID, "app");
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true");
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return new MvsinkApp(new MvsinkConfig(props), null).streamsProps();
    }

    @Test
    void shouldFetchSmallPiecesOfAPartitionSoThatReportsAreNotHeldBehindABacklog() {
        Properties props = streamsProps();
        assertEquals(MvsinkApp.MAIN_CONSUMER_FETCH_BYTES, props.get(MAIN_FETCH));
        assertEquals(64 * 1024, MvsinkApp.MAIN_CONSUMER_FETCH_BYTES);
        // the restore consumer (changelogs) keeps Kafka's default
        assertFalse(props.containsKey(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)));
    }

    @Test
    void shouldLeaveTheFetchSizeToAUserWhoSetsItAtAnyLevel() {
        assertEquals("1048576", streamsProps("streams.main.consumer.max.partition.fetch.bytes", "1048576").get(MAIN_FETCH));
        Properties consumer = streamsProps("streams.consumer.max.partition.fetch.bytes", "524288");
        assertFalse(consumer.containsKey(MAIN_FETCH), "a consumer-level setting would lose to a main.consumer one");
        assertEquals("524288", consumer.get(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)));
        Properties bare = streamsProps("streams.max.partition.fetch.bytes", "262144");
        assertFalse(bare.containsKey(MAIN_FETCH));
        assertEquals("262144", bare.get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG));
    }
}
