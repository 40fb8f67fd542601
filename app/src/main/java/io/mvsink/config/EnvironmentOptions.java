package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigException;

/**
 * mvsink options read from environment variables, for containers and secrets. The rule:
 * <ul>
 *   <li>a declared option {@code a.b-c} is the variable {@code MVSINK_A_B_C}: {@value #PREFIX}, then the
 *       name in upper case with '.' and '-' as '_' ({@link #variableOf});</li>
 *   <li>{@code MVSINK_STREAMS_X_Y} is the pass-through option {@code streams.x.y}: the rest in lower case
 *       with '_' as '.'. A Kafka Streams option whose name has characters other than dots (none of Kafka's
 *       own do) cannot be spelled this way; set it with {@code --set} or {@code --config};</li>
 *   <li>any other {@code MVSINK_} variable is an error naming it, so that a typo is never silently
 *       ignored. Variables without the prefix are not read.</li>
 * </ul>
 */
public final class EnvironmentOptions {
    public static final String PREFIX = "MVSINK_";
    public static final String STREAMS_VARIABLE_PREFIX = PREFIX + "STREAMS_";

    private static final Map<String, String> OPTION_BY_VARIABLE = optionsByVariable();

    private EnvironmentOptions() {
    }

    /** The environment variable of {@code option}, e.g. {@code MVSINK_NUM_STREAM_THREADS}. */
    public static String variableOf(String option) {
        return PREFIX + option.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /**
     * The mvsink options set in {@code env}, by option name.
     *
     * @throws ConfigException naming every {@code MVSINK_} variable that matches no option
     */
    public static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> options = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(env).entrySet()) {
            String variable = entry.getKey();
            if (!variable.startsWith(PREFIX)) {
                continue;
            }
            String option = optionOf(variable);
            if (option == null) {
                unknown.add(variable);
            } else {
                options.put(option, entry.getValue());
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException("environment variable" + (unknown.size() > 1 ? "s " : " ")
                + String.join(", ", unknown) + " match" + (unknown.size() > 1 ? "" : "es")
                + " no mvsink option (" + PREFIX + " variables are options: " + variableOf("a.b-c")
                + " is a.b-c, " + STREAMS_VARIABLE_PREFIX + "X_Y is streams.x.y)");
        }
        return options;
    }

    /** The option {@code variable} sets, or null if it sets none. */
    static String optionOf(String variable) {
        String declared = OPTION_BY_VARIABLE.get(variable);
        if (declared != null) {
            return declared;
        }
        String rest = variable.substring(Math.min(variable.length(), STREAMS_VARIABLE_PREFIX.length()));
        if (!variable.startsWith(STREAMS_VARIABLE_PREFIX) || !rest.matches("[A-Z0-9]+(_[A-Z0-9]+)*")) {
            return null;
        }
        return MvsinkConfig.STREAMS_PREFIX + rest.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private static Map<String, String> optionsByVariable() {
        Map<String, String> byVariable = new TreeMap<>();
        for (String option : MvsinkConfig.DEFINITION.names()) {
            String clash = byVariable.put(variableOf(option), option);
            if (clash != null || variableOf(option).startsWith(STREAMS_VARIABLE_PREFIX)) {
                throw new IllegalStateException("option " + option + " has no environment variable of its own");
            }
        }
        return byVariable;
    }
}
