package io.mvsink.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 *       ({@code MVSINK_STREAMS_X__Y} is {@code streams.x_y}), if Kafka Streams takes {@code x.y}
 *       ({@link StreamsOptions});</li>
 *   <li>a variable is read back by the rule in reverse ({@link #optionOf}): runs of one, two or three
 *       {@code _} between letters and digits; anything else, and any {@code MVSINK_} variable that
 *       names neither a declared option nor a {@code streams.} one Kafka Streams takes, is an error
 *       naming it and the nearest variable that is one, so that a typo is never silently ignored.
 *       Variables without the prefix are not read;</li>
 *   <li>four variables are not options but logging's, read by the shipped {@code logback.xml}:
 *       {@value #LOG_FORMAT} ({@code text} or {@code json}), {@value #LOG_LEVEL} (mvsink's level),
 *       {@value #AZURE_LOG_LEVEL} (the Azure SDK's) and {@value #LAUNCH_LOG} (the launch's timeline at DEBUG).
 *       They are checked here, since logback drops a line it cannot place without a word.</li>
 * </ul>
 */
public final class EnvironmentOptions {
    public static final String PREFIX = "MVSINK_";
    public static final String STREAMS_VARIABLE_PREFIX = PREFIX + "STREAMS_";
    /** The log layout, text or json (logback.xml); not an option. */
    public static final String LOG_FORMAT = PREFIX + "LOG_FORMAT";
    /** The level of mvsink's loggers (io.mvsink and mvsink, logback.xml); not an option. */
    public static final String LOG_LEVEL = PREFIX + "LOG_LEVEL";
    /** The level of the Azure SDK's loggers (com.azure, logback.xml; OFF by default); not an option. */
    public static final String AZURE_LOG_LEVEL = PREFIX + "AZURE_LOG_LEVEL";
    /** The level of the launch's timeline (logback.xml, metrics.LaunchLog): DEBUG shows it; not an option. */
    public static final String LAUNCH_LOG = PREFIX + "LAUNCH_LOG";
    private static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");
    /** Each logging variable's accepted values (as logback.xml reads them: the format's case matters). */
    private static final Map<String, Set<String>> LOGGING = Map.of(
        LOG_FORMAT, Set.of("text", "json"),
        LOG_LEVEL, LEVELS,
        AZURE_LOG_LEVEL, LEVELS,
        LAUNCH_LOG, LEVELS);

    private static final Pattern SPELLING = Pattern.compile("[A-Z0-9]+(_{1,3}[A-Z0-9]+)*");
    private static final Pattern UNDERSCORES = Pattern.compile("_+");

    static {
        checkDeclaredOptions();
    }

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
     * @throws ConfigException naming every {@code MVSINK_} variable that matches no option (with the
     *     nearest that does) and every logging variable with a bad value
     */
    public static Map<String, String> fromEnvironment(Map<String, String> env) {
        ConfigErrors errors = new ConfigErrors();
        Map<String, String> options = read(env, errors);
        errors.throwIfAny();
        return options;
    }

    /**
     * The mvsink options the well-formed variables of {@code env} set, by option name; the error of
     * every other {@code MVSINK_} variable goes to {@code errors}, so that a caller can report them
     * with those of the options from its other sources.
     */
    public static Map<String, String> read(Map<String, String> env, ConfigErrors errors) {
        Map<String, String> options = new TreeMap<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(env).entrySet()) {
            String variable = entry.getKey();
            if (!variable.startsWith(PREFIX)) {
                continue;
            }
            if (LOGGING.containsKey(variable)) {
                errors.check(() -> checkLogging(variable, entry.getValue()));
                continue;
            }
            String option = optionOf(variable);
            if (option == null) {
                errors.add(unknown(variable));
            } else {
                options.put(option, entry.getValue());
            }
        }
        return options;
    }

    private static ConfigException unknown(String variable) {
        String spelled = spelledOption(variable);
        Optional<String> nearest = spelled == null ? Optional.empty() : OptionCheck.nearest(spelled)
            .map(EnvironmentOptions::variableOf).filter(near -> optionOf(near) != null);
        return new ConfigException("environment variable " + variable
            + (spelled == null ? "" : " (option " + spelled + ")") + " matches no mvsink option"
            + nearest.map(near -> " (did you mean " + near + "?)").orElse(" (" + PREFIX + " variables are options, "
                + "'.' as '_', '_' as '__', '-' as '___': " + variableOf("a.b_c-d") + " is a.b_c-d, "
                + STREAMS_VARIABLE_PREFIX + "X_Y is streams.x.y, which Kafka Streams must take)"));
    }

    /** True if {@code variable} is one of logging's (read by logback.xml, not an option). */
    static boolean isLogging(String variable) {
        return LOGGING.containsKey(variable);
    }

    private static void checkLogging(String variable, String value) {
        Set<String> accepted = LOGGING.get(variable);
        String spelled = accepted == LEVELS ? value.toUpperCase(Locale.ROOT) : value;
        if (!accepted.contains(spelled)) {
            throw new ConfigException(variable, value, "one of " + new TreeSet<>(accepted));
        }
    }

    /** The option {@code variable} sets, or null if it sets none. */
    static String optionOf(String variable) {
        String option = spelledOption(variable);
        return option != null && OptionCheck.known(option) ? option : null;
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

    /** Checks that each declared option is spelled back from its variable and does not pose as a streams one. */
    private static void checkDeclaredOptions() {
        Set<String> declared = new TreeSet<>(MvsinkConfig.DEFINITION.names());
        for (String option : declared) {
            String variable = variableOf(option);
            if (variable.startsWith(STREAMS_VARIABLE_PREFIX) || LOGGING.containsKey(variable)
                    || !option.equals(spelledOption(variable))) {
                throw new IllegalStateException("option " + option + " has no environment variable of its own");
            }
        }
    }
}
