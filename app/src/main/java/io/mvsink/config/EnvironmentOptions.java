package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigException;

/**
 * mvsink options read from environment variables, for containers and secrets. The rule (the usual
 * escaping of Kafka's container images):
 * <ul>
 *   <li>an option is the variable {@value #PREFIX}, then its name in upper case with {@code .} as
 *       {@code _}, {@code _} as {@code __} and {@code -} as {@code ___} ({@link #variableOf}): {@code a.b}
 *       is {@code MVSINK_A_B}, {@code a.b_c} is {@code MVSINK_A_B__C}, {@code a.b-c} is {@code MVSINK_A_B___C}.
 *       No declared option has {@code _} or {@code -} in its name, so a single {@code _} still means
 *       {@code .} and every variable documented before the escaping keeps its meaning;</li>
 *   <li>{@code MVSINK_STREAMS_X_Y} is the pass-through option {@code streams.x.y}, by the same rule
 *       ({@code MVSINK_STREAMS_X__Y} is {@code streams.x_y});</li>
 *   <li>a variable is read back by the rule in reverse ({@link #optionOf}): runs of one, two or three
 *       {@code _} between letters and digits; anything else, and any {@code MVSINK_} variable that
 *       names neither a declared option nor a {@code streams.} one, is an error naming it, so that a
 *       typo is never silently ignored. Variables without the prefix are not read;</li>
 *   <li>two variables are not options but logging's, read by the shipped {@code logback.xml}:
 *       {@value #LOG_FORMAT} ({@code text} or {@code json}) and {@value #LOG_LEVEL} (io.mvsink's level).
 *       They are checked here, since logback drops a line it cannot place without a word.</li>
 * </ul>
 */
public final class EnvironmentOptions {
    public static final String PREFIX = "MVSINK_";
    public static final String STREAMS_VARIABLE_PREFIX = PREFIX + "STREAMS_";
    /** The log layout, text or json (logback.xml); not an option. */
    public static final String LOG_FORMAT = PREFIX + "LOG_FORMAT";
    /** The level of io.mvsink's loggers (logback.xml); not an option. */
    public static final String LOG_LEVEL = PREFIX + "LOG_LEVEL";
    /** Each logging variable's accepted values (as logback.xml reads them: the format's case matters). */
    private static final Map<String, Set<String>> LOGGING = Map.of(
        LOG_FORMAT, Set.of("text", "json"),
        LOG_LEVEL, Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"));

    private static final Pattern SPELLING = Pattern.compile("[A-Z0-9]+(_{1,3}[A-Z0-9]+)*");
    private static final Pattern UNDERSCORES = Pattern.compile("_+");
    private static final Set<String> DECLARED = declaredOptions();

    private EnvironmentOptions() {
    }

    /** The environment variable of {@code option}, e.g. {@code MVSINK_NUM_STREAM_THREADS}. */
    public static String variableOf(String option) {
        StringBuilder variable = new StringBuilder(PREFIX);
        for (char c : option.toUpperCase(Locale.ROOT).toCharArray()) {
            switch (c) {
                case '.' -> variable.append('_');
                case '_' -> variable.append("__");
                case '-' -> variable.append("___");
                default -> variable.append(c);
            }
        }
        return variable.toString();
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
            if (LOGGING.containsKey(variable)) {
                checkLogging(variable, entry.getValue());
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
                + " no mvsink option (" + PREFIX + " variables are options, '.' as '_', '_' as '__', '-' as '___': "
                + variableOf("a.b_c-d") + " is a.b_c-d, " + STREAMS_VARIABLE_PREFIX + "X_Y is streams.x.y)");
        }
        return options;
    }

    private static void checkLogging(String variable, String value) {
        Set<String> accepted = LOGGING.get(variable);
        String spelled = variable.equals(LOG_LEVEL) ? value.toUpperCase(Locale.ROOT) : value;
        if (!accepted.contains(spelled)) {
            throw new ConfigException(variable, value, "one of " + new TreeSet<>(accepted));
        }
    }

    /** The option {@code variable} sets, or null if it sets none. */
    static String optionOf(String variable) {
        String option = spelledOption(variable);
        return option != null && (DECLARED.contains(option) || option.startsWith(MvsinkConfig.STREAMS_PREFIX))
            ? option : null;
    }

    /** The option name {@code variable} spells by the rule, declared or not; null if it spells none. */
    private static String spelledOption(String variable) {
        String spelled = variable.substring(Math.min(variable.length(), PREFIX.length()));
        if (!variable.startsWith(PREFIX) || !SPELLING.matcher(spelled).matches()) {
            return null;
        }
        return UNDERSCORES.matcher(spelled.toLowerCase(Locale.ROOT)).replaceAll(run -> switch (run.group().length()) {
            case 1 -> ".";
            case 2 -> "_";
            default -> "-";
        });
    }

    /** The declared options, each checked to be spelled back from its variable and not to pose as a streams one. */
    private static Set<String> declaredOptions() {
        Set<String> declared = new TreeSet<>(MvsinkConfig.DEFINITION.names());
        for (String option : declared) {
            String variable = variableOf(option);
            if (variable.startsWith(STREAMS_VARIABLE_PREFIX) || LOGGING.containsKey(variable)
                    || !option.equals(spelledOption(variable))) {
                throw new IllegalStateException("option " + option + " has no environment variable of its own");
            }
        }
        return declared;
    }
}
