package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Each option on its own, before the rules across options: its name must be a declared option or
 * {@code streams.} and a key Kafka Streams takes ({@link StreamsOptions}), else it is refused with
 * the nearest known name (a typo is never silently ignored, nor its value shown: it may be a
 * secret); its value must parse and pass its definition's validator, the error naming the option
 * as it was set ({@code streams.transaction.timeout.ms}, not Kafka's unprefixed name).
 */
final class OptionCheck {
    private static final Set<String> DECLARED = MvsinkConfig.DEFINITION.names();
    private static final Set<String> KNOWN = knownNames();

    private OptionCheck() {
    }

    /** Whether {@code option} is a declared option or a {@code streams.} one Kafka Streams takes. */
    static boolean known(String option) {
        return DECLARED.contains(option) || (option.startsWith(MvsinkConfig.STREAMS_PREFIX)
            && StreamsOptions.known(option.substring(MvsinkConfig.STREAMS_PREFIX.length())));
    }

    /**
     * The known option {@code option} most likely means: itself with or without {@code streams.}
     * when that is known, else the nearest by edit distance.
     */
    static Optional<String> nearest(String option) {
        String toggled = option.startsWith(MvsinkConfig.STREAMS_PREFIX)
            ? option.substring(MvsinkConfig.STREAMS_PREFIX.length()) : MvsinkConfig.STREAMS_PREFIX + option;
        return known(toggled) ? Optional.of(toggled) : Nearest.to(option, KNOWN);
    }

    /** The error of every option set in {@code props} (not of those missing), in the options' order. */
    static List<ConfigException> errors(Map<?, ?> props) {
        List<ConfigException> errors = new ArrayList<>();
        Map<String, Object> sorted = new TreeMap<>();
        props.forEach((option, value) -> sorted.put(String.valueOf(option), value));
        sorted.forEach((option, value) -> {
            Optional<ConfigDef.ConfigKey> definition = definition(option);
            if (!known(option)) {
                errors.add(new ConfigException("Unknown option " + option + nearest(option)
                    .map(name -> " (did you mean " + name + "?)")
                    .orElse(" (neither an mvsink option nor " + MvsinkConfig.STREAMS_PREFIX + "<a key Kafka Streams takes>)")));
            } else if (definition.isPresent()) {
                checkValue(option, definition.get(), value, errors);
            }
        });
        return errors;
    }

    /** The error of every required option {@code props} does not set. */
    static List<ConfigException> missing(Map<?, ?> props) {
        List<ConfigException> errors = new ArrayList<>();
        for (ConfigDef.ConfigKey key : MvsinkConfig.DEFINITION.configKeys().values()) {
            if (!key.hasDefault() && !props.containsKey(key.name)) {
                errors.add(new ConfigException("Missing required configuration \"" + key.name
                    + "\" which has no default value."));
            }
        }
        return errors;
    }

    private static Optional<ConfigDef.ConfigKey> definition(String option) {
        if (DECLARED.contains(option)) {
            return Optional.of(MvsinkConfig.DEFINITION.configKeys().get(option));
        }
        return option.startsWith(MvsinkConfig.STREAMS_PREFIX)
            ? StreamsOptions.definition(option.substring(MvsinkConfig.STREAMS_PREFIX.length())) : Optional.empty();
    }

    private static void checkValue(String option, ConfigDef.ConfigKey key, Object value, List<ConfigException> errors) {
        try {
            Object parsed = ConfigDef.parseType(option, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(option, parsed);
            }
        } catch (ConfigException e) {
            errors.add(e);
        }
    }

    private static Set<String> knownNames() {
        Set<String> names = new TreeSet<>(DECLARED);
        StreamsOptions.names().forEach(key -> names.add(MvsinkConfig.STREAMS_PREFIX + key));
        return names;
    }
}
