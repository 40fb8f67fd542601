package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Every option the docs show is one mvsink takes, checked by the configuration's own rules
 * ({@link EnvironmentOptions}, {@link OptionCheck}): {@code MVSINK_X=value} and {@code key=value}
 * lines of fenced code blocks; inline {@code MVSINK_X=value}, {@code key=value} of an mvsink or
 * {@code streams.} option and {@code --set key=value}; and by name alone every {@code MVSINK_}
 * variable mentioned (in compose files' comments too) and every inline {@code streams.} option.
 * Placeholders (single-letter parts, {@code *}) are not options. compose.yaml's environment as a
 * whole configuration is DockerComposeTest's.
 */
class DocumentedOptionsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> DOCS = List.of("README.md", "docker/README.md", "docs/ARCHITECTURE.md",
        "docs/BENCH.md", "topology-docs/README.md", "docker/compose.yaml");

    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Pattern ENV_LINE = Pattern.compile("^\\s*(MVSINK_[A-Z0-9_]+)=(\\S*)");
    private static final Pattern PROPERTY_LINE = Pattern.compile("^\\s*([a-z][a-z0-9]*(?:[._-][a-z0-9]+)+)=(.*)$");
    private static final Pattern INLINE_ENV = Pattern.compile("`(MVSINK_[A-Z0-9_]+)=([^`\\s]*)`");
    private static final Pattern INLINE_PROPERTY = Pattern.compile("`([a-z][a-z0-9]*(?:[._-][a-z0-9]+)+)=([^`\\s]*)`");
    private static final Pattern SET = Pattern.compile("--set\\s+([a-z][a-z0-9._-]*\\.[a-z0-9._-]+)=([^\\s`\"]*)");
    private static final Pattern VARIABLE = Pattern.compile("MVSINK_[A-Z0-9_]*[A-Z0-9]");
    private static final Pattern STREAMS_NAME = Pattern.compile("`(streams\\.[a-z0-9._*-]+)`");
    private static final Pattern PLACEHOLDER_VARIABLE = Pattern.compile("MVSINK_(STREAMS_)?[A-Z](_{1,3}[A-Z])*");
    private static final Pattern PLACEHOLDER_OPTION = Pattern.compile("(streams\\.)?[a-z]([._-][a-z])*|.*[*.]");

    private record Example(String where, String text) {
    }

    @Test
    void shouldShowOnlyOptionsAndValuesTheConfigurationTakes() throws IOException {
        List<String> errors = new ArrayList<>();
        List<Example> checked = new ArrayList<>();
        for (String doc : DOCS) {
            List<String> lines = Files.readAllLines(ROOT.resolve(doc));
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String where = doc + ":" + (i + 1);
                if (FENCE.matcher(line).find()) {
                    fenced = !fenced;
                    continue;
                }
                String code = line.replaceAll("\\s+#.*$", "");
                if (fenced) {
                    matchEach(ENV_LINE, code, m -> checkVariable(m.group(1), m.group(2)), where, errors, checked);
                    matchEach(PROPERTY_LINE, code, m -> checkOption(m.group(1), m.group(2)), where, errors, checked);
                }
                matchEach(INLINE_ENV, line, m -> checkVariable(m.group(1), m.group(2)), where, errors, checked);
                matchEach(INLINE_PROPERTY, line, m -> isMvsinkOption(m.group(1)) ? checkOption(m.group(1), m.group(2))
                    : null, where, errors, checked);
                matchEach(SET, line, m -> checkOption(m.group(1), m.group(2)), where, errors, checked);
                matchEach(VARIABLE, line, m -> checkVariableName(m.group()), where, errors, checked);
                matchEach(STREAMS_NAME, line, m -> checkOptionName(m.group(1)), where, errors, checked);
            }
        }
        assertEquals(List.of(), errors);
        List<String> texts = checked.stream().map(Example::text).toList();
        for (String expected : List.of("num.stream.threads=4", "MVSINK_BLOB_AUTH=entra", "MVSINK_HTTP_PORT=8080",
                "MVSINK_STREAMS_RACK_AWARE_ASSIGNMENT_TAGS", "blob.auth=entra", "streams.session.timeout.ms")) {
            assertTrue(texts.contains(expected), "the docs' example " + expected + " was found and checked: " + texts);
        }
    }

    private interface Check {
        /** The error of the example {@code match} shows, or null if it is right (or not an option). */
        String error(Matcher match);
    }

    private static void matchEach(Pattern pattern, String line, Check check, String where, List<String> errors,
                                  List<Example> checked) {
        Matcher match = pattern.matcher(line);
        while (match.find()) {
            String error = check.error(match);
            if (error != null && !error.isEmpty()) {
                errors.add(where + ": " + match.group() + ": " + error);
            } else if (error != null) {
                checked.add(new Example(where, match.group().replace("`", "").replaceFirst("^--set\\s+", "").strip()));
            }
        }
    }

    private static boolean isMvsinkOption(String option) {
        return MvsinkConfig.DEFINITION.names().contains(option) || option.startsWith(MvsinkConfig.STREAMS_PREFIX);
    }

    /** "" when {@code option=value} is accepted, else the errors. */
    private static String checkOption(String option, String value) {
        return String.join("; ", OptionCheck.errors(Map.of(option, value)).stream().map(Throwable::getMessage).toList());
    }

    private static String checkOptionName(String option) {
        if (PLACEHOLDER_OPTION.matcher(option).matches()) {
            return null;
        }
        return OptionCheck.known(option) ? "" : "not an option";
    }

    private static String checkVariable(String variable, String value) {
        try {
            Map<String, String> options = EnvironmentOptions.fromEnvironment(Map.of(variable, value));
            return String.join("; ", OptionCheck.errors(options).stream().map(Throwable::getMessage).toList());
        } catch (ConfigException e) {
            return e.getMessage();
        }
    }

    private static String checkVariableName(String variable) {
        if (PLACEHOLDER_VARIABLE.matcher(variable).matches()) {
            return null;
        }
        return EnvironmentOptions.isLogging(variable) || EnvironmentOptions.optionOf(variable) != null ? ""
            : "names no option";
    }
}
