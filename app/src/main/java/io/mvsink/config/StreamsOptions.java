package io.mvsink.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The keys a {@code streams.} option may carry: what Kafka Streams takes, by Kafka's own config
 * definitions. A key is
 * <ul>
 *   <li>a Kafka Streams config ({@link StreamsConfig#configDef()}), or a producer, consumer or admin
 *       config unprefixed (Kafka Streams hands those to every client that knows them);</li>
 *   <li>a producer config after {@code producer.}, a consumer config after {@code consumer.},
 *       {@code main.consumer.}, {@code restore.consumer.} or {@code global.consumer.}, an admin
 *       config after {@code admin.};</li>
 *   <li>{@code topic.} and a topic config ({@link TopicConfig}), for the internal topics;</li>
 *   <li>or a key under an open prefix, whose rest Kafka leaves to the user: {@code client.tag.}
 *       (rack-aware assignment) and {@code metrics.context.}, also after a client prefix.</li>
 * </ul>
 * A defined key's value is checked by its definition's type and validator; topic configs' and open
 * keys' values are left to Kafka.
 */
final class StreamsOptions {
    private static final List<String> CONSUMER_PREFIXES = List.of(StreamsConfig.CONSUMER_PREFIX,
        StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.GLOBAL_CONSUMER_PREFIX);
    private static final List<String> CLIENT_PREFIXES = List.of(StreamsConfig.PRODUCER_PREFIX,
        StreamsConfig.CONSUMER_PREFIX, StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.RESTORE_CONSUMER_PREFIX,
        StreamsConfig.GLOBAL_CONSUMER_PREFIX, StreamsConfig.ADMIN_CLIENT_PREFIX);
    private static final String METRICS_CONTEXT_PREFIX = "metrics.context.";

    /** Every defined key, by its name as Kafka Streams takes it, to its definition. */
    private static final Map<String, ConfigDef.ConfigKey> DEFINED = defined();
    private static final Set<String> TOPIC_KEYS = topicKeys();
    private static final Set<String> NAMES = allNames();

    private StreamsOptions() {
    }

    /** Whether Kafka Streams takes {@code key} (without mvsink's {@code streams.} prefix). */
    static boolean known(String key) {
        return DEFINED.containsKey(key) || TOPIC_KEYS.contains(key) || isOpen(key);
    }

    /** The definition that checks {@code key}'s value; empty for keys whose values Kafka alone checks. */
    static Optional<ConfigDef.ConfigKey> definition(String key) {
        return Optional.ofNullable(DEFINED.get(key));
    }

    /** Every key with a name of its own (not the open prefixes'), sorted: the candidates of a suggestion. */
    static Set<String> names() {
        return NAMES;
    }

    private static Set<String> allNames() {
        Set<String> names = new TreeSet<>(DEFINED.keySet());
        names.addAll(TOPIC_KEYS);
        return Collections.unmodifiableSet(names);
    }

    private static boolean isOpen(String key) {
        String rest = key;
        for (String prefix : CLIENT_PREFIXES) {
            if (key.startsWith(prefix)) {
                rest = key.substring(prefix.length());
                break;
            }
        }
        boolean metrics = rest.startsWith(METRICS_CONTEXT_PREFIX) && rest.length() > METRICS_CONTEXT_PREFIX.length();
        boolean tag = key.startsWith(StreamsConfig.CLIENT_TAG_PREFIX)
            && key.length() > StreamsConfig.CLIENT_TAG_PREFIX.length();
        return metrics || tag;
    }

    private static Map<String, ConfigDef.ConfigKey> defined() {
        Map<String, ConfigDef.ConfigKey> defined = new LinkedHashMap<>();
        List<ConfigDef> clients = List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(),
            AdminClientConfig.configDef());
        for (ConfigDef def : clients) {
            def.configKeys().forEach(defined::putIfAbsent);
        }
        defined.putAll(StreamsConfig.configDef().configKeys());
        ProducerConfig.configDef().configKeys().forEach((name, key) -> defined.put(StreamsConfig.PRODUCER_PREFIX + name, key));
        for (String prefix : CONSUMER_PREFIXES) {
            ConsumerConfig.configDef().configKeys().forEach((name, key) -> defined.put(prefix + name, key));
        }
        AdminClientConfig.configDef().configKeys()
            .forEach((name, key) -> defined.put(StreamsConfig.ADMIN_CLIENT_PREFIX + name, key));
        return Collections.unmodifiableMap(defined);
    }

    /** {@code topic.} and each topic config: TopicConfig's {@code *_CONFIG} constants (clients have no definition of them). */
    private static Set<String> topicKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field field : TopicConfig.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
                    && field.getName().endsWith("_CONFIG")) {
                try {
                    keys.add(StreamsConfig.TOPIC_PREFIX + field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("TopicConfig." + field.getName(), e);
                }
            }
        }
        return Collections.unmodifiableSet(keys);
    }
}
