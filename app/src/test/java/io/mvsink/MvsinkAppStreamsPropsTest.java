package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mvsink.config.MvsinkConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Kafka Streams' internal topics are replicated as mvsink's own topics unless a streams option says otherwise. */
class MvsinkAppStreamsPropsTest {

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
}
