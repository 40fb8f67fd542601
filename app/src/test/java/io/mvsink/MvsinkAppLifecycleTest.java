package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.config.MvsinkConfig;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** The app's own lifecycle: CREATED → STARTED → CLOSED, or CREATED → CLOSED, and nothing else. */
class MvsinkAppLifecycleTest {
    @Test
    void shouldAllowOnlyTheDocumentedTransitions() {
        var legal = Map.of(
            MvsinkApp.Lifecycle.CREATED, EnumSet.of(MvsinkApp.Lifecycle.STARTED, MvsinkApp.Lifecycle.CLOSED),
            MvsinkApp.Lifecycle.STARTED, EnumSet.of(MvsinkApp.Lifecycle.CLOSED));
        for (MvsinkApp.Lifecycle from : MvsinkApp.Lifecycle.values()) {
            for (MvsinkApp.Lifecycle to : MvsinkApp.Lifecycle.values()) {
                Set<MvsinkApp.Lifecycle> allowed = legal.getOrDefault(from, EnumSet.noneOf(MvsinkApp.Lifecycle.class));
                assertEquals(allowed.contains(to), from.canBecome(to), from + " -> " + to);
            }
        }
    }

    @Test
    void shouldRefuseToStartAClosedApp() {
        MvsinkApp app = new MvsinkApp(new MvsinkConfig(Map.of(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092",
            MvsinkConfig.CORRECTIONS_TOPIC, "orders", MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true",
            MvsinkConfig.REGISTRY_URL, "http://localhost:8081")), null);
        app.close();
        assertEquals(KafkaStreams.State.CREATED, app.state(), "a closed app that never started has no stream threads");
        IllegalStateException e = assertThrows(IllegalStateException.class, app::start);
        assertTrue(e.getMessage().contains("already closed"), e.getMessage());
    }
}
