package io.mvsink.cli;

import io.mvsink.config.ConfigErrors;
import io.mvsink.config.EnvironmentOptions;
import io.mvsink.config.MvsinkConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Option;

/**
 * Options every command shares, from three sources, each winning over the one before: a properties
 * file ({@code --config}), {@code MVSINK_*} environment variables ({@link EnvironmentOptions}), then
 * {@code --set key=value} and the explicit flags.
 */
final class Settings {
    @Option(names = "--config", paramLabel = "FILE", description = "Properties file of mvsink options.")
    Path file;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
        description = "Sets one option (repeatable; wins over --config and MVSINK_* environment variables).")
    Map<String, String> overrides = Map.of();

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrapServers;

    @Option(names = "--registry-url", paramLabel = "URL", description = "Schema registry base URL.")
    String registryUrl;

    @Option(names = "--blob-connection-string", paramLabel = "CS", description = "Azure Storage connection string.")
    String blobConnectionString;

    Properties properties() {
        return properties(System.getenv());
    }

    /**
     * The options of the three sources, not checked as a configuration (a command that needs only
     * some of them reads those).
     *
     * @throws ConfigException naming every bad {@code MVSINK_} variable
     */
    Properties properties(Map<String, String> env) {
        ConfigErrors errors = new ConfigErrors();
        Properties props = properties(env, errors);
        errors.throwIfAny();
        return props;
    }

    MvsinkConfig config() {
        return config(System.getenv());
    }

    /**
     * The configuration of the three sources.
     *
     * @throws ConfigException naming every error of every source at once: the bad {@code MVSINK_}
     *     variables with those of the options ({@link MvsinkConfig#MvsinkConfig})
     */
    MvsinkConfig config(Map<String, String> env) {
        ConfigErrors errors = new ConfigErrors();
        Properties props = properties(env, errors);
        MvsinkConfig config = null;
        try {
            config = new MvsinkConfig(props);
        } catch (ConfigException e) {
            errors.add(e);
        }
        errors.throwIfAny();
        return config;
    }

    private Properties properties(Map<String, String> env, ConfigErrors errors) {
        Properties props = new Properties();
        if (file != null) {
            try (Reader reader = Files.newBufferedReader(file)) {
                props.load(reader);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read --config " + file + ": " + e.getMessage(), e);
            }
        }
        props.putAll(EnvironmentOptions.read(env, errors));
        props.putAll(overrides);
        putIfSet(props, MvsinkConfig.BOOTSTRAP_SERVERS, bootstrapServers);
        putIfSet(props, MvsinkConfig.REGISTRY_URL, registryUrl);
        putIfSet(props, MvsinkConfig.BLOB_CONNECTION_STRING, blobConnectionString);
        return props;
    }

    private static void putIfSet(Properties props, String key, String value) {
        if (value != null) {
            props.put(key, value);
        }
    }
}
