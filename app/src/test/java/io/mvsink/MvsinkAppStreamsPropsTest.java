package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mvsink.config.MvsinkConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The Kafka Streams properties the app starts its stream threads with: internal topics replicated as
 * mvsink's own topics unless a streams option says otherwise; the main consumer's fetch size; the
 * restore consumer's fetch wait.
 */
class MvsinkAppStreamsPropsTest {
    private static final String MAIN_FETCH =
        StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);

    private static Properties streamsProps(String... options) {
        Map<String, Object> props = new HashMap<>(Map.of(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092",
            MvsinkConfig.CORRECTIONS_TOPIC, "orders", MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true",
            MvsinkConfig.REGISTRY_URL, "http://localhost:8081"));
        for (int i = 0; i < options.length; i += 2) {
            props.put(options[i], options[i + 1]);
        }
        return new MvsinkApp(new MvsinkConfig(props), null).streamsProps();
    }

    @Test
    void shouldLeaveTheInternalTopicsToTheBrokerByDefault() {
        Properties props = streamsProps();
        assertNull(props.get("replication.factor"));
        assertNull(props.get("topic.min.insync.replicas"));
    }

    @Test
    void shouldReplicateTheInternalTopicsAsItsOwnTopics() {
        Properties props = streamsProps(MvsinkConfig.TOPICS_REPLICATION_FACTOR, "3",
            MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, "2");
        assertEquals(3, props.get("replication.factor"));
        assertEquals("2", props.get("topic.min.insync.replicas"));
    }

    @Test
    void shouldLetTheStreamsOptionsWin() {
        Properties props = streamsProps(MvsinkConfig.TOPICS_REPLICATION_FACTOR, "3",
            MvsinkConfig.TOPICS_MIN_INSYNC_REPLICAS, "2", "streams.replication.factor", "5",
            "streams.topic.min.insync.replicas", "3");
        assertEquals("5", props.get("replication.factor"));
        assertEquals("3", props.get("topic.min.insync.replicas"));
    }

    @Test
    void shouldStartOneStreamThreadMoreForTheAppendersTask() {
        assertEquals(2, streamsProps().get(StreamsConfig.NUM_STREAM_THREADS_CONFIG), "the default of 1, and the appender's");
        assertEquals(9, streamsProps(MvsinkConfig.NUM_STREAM_THREADS, "8").get(StreamsConfig.NUM_STREAM_THREADS_CONFIG));
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

    @Test
    void shouldNotLetTheRestoreConsumerHoldAnEmptyChangelogsFetchForHalfASecond() {
        String restoreWait = StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);
        assertEquals(MvsinkApp.RESTORE_CONSUMER_FETCH_WAIT_MS, streamsProps().get(restoreWait));
        assertEquals(100, MvsinkApp.RESTORE_CONSUMER_FETCH_WAIT_MS);
        assertFalse(streamsProps().containsKey(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)),
            "the main consumer keeps Kafka's default");
        assertEquals("20", streamsProps("streams.restore.consumer.fetch.max.wait.ms", "20").get(restoreWait));
        Properties consumer = streamsProps("streams.consumer.fetch.max.wait.ms", "300");
        assertFalse(consumer.containsKey(restoreWait), "a consumer-level setting would lose to a restore.consumer one");
        Properties bare = streamsProps("streams.fetch.max.wait.ms", "400");
        assertFalse(bare.containsKey(restoreWait));
    }

    @Test
    void shouldCommitEverySecondUnlessTheUserSetsAnInterval() {
        assertEquals(1000L, streamsProps().get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG));
        assertEquals("250", streamsProps("streams.commit.interval.ms", "250").get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG));
    }

    @Test
    void shouldCreateTheChangelogsToTakeWhatTheProducerSends() {
        String topicMax = StreamsConfig.topicPrefix("max.message.bytes");
        assertNull(streamsProps().get(topicMax), "at the producer's default, the broker's default is left alone");
        assertEquals("4194304", streamsProps("streams.producer.max.request.size", "4194304").get(topicMax));
        assertEquals("2000000", streamsProps("streams.producer.max.request.size", "4194304",
            "streams.topic.max.message.bytes", "2000000").get(topicMax), "a user's topic setting wins");
    }

    @Test
    void shouldCreateItsDeadLetterAndReportsTopicsToTakeWhatTheProducerSends() {
        Map<String, Object> props = new HashMap<>(Map.of(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092",
            MvsinkConfig.CORRECTIONS_TOPIC, "orders", MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true",
            MvsinkConfig.REGISTRY_URL, "http://localhost:8081", "streams.producer.max.request.size", "4194304"));
        assertEquals("4194304", new MvsinkApp(new MvsinkConfig(props), null).topicSettings().deletingTopicConfigs()
            .get("max.message.bytes"));
        props.remove("streams.producer.max.request.size");
        assertNull(new MvsinkApp(new MvsinkConfig(props), null).topicSettings().deletingTopicConfigs()
            .get("max.message.bytes"), "at the producer's default, the broker's default is left alone");
    }
}
