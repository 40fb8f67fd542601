package io.mvsink.config;

import java.util.HashMap;
import java.util.Map;

/** Configurations for tests: the required options (a local broker, topic {@code orders}, Azurite, a registry) and what a test names. */
public final class TestConfigs {
    private TestConfigs() {
    }

    /** The required options with {@code overrides}, given as name, value, name, value, ... */
    public static MvsinkConfig config(String... overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "orders");
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, "UseDevelopmentStorage=true");
        props.put(MvsinkConfig.REGISTRY_URL, "http://localhost:8081");
        for (int i = 0; i < overrides.length; i += 2) {
            props.put(overrides[i], overrides[i + 1]);
        }
        return new MvsinkConfig(props);
    }
}
