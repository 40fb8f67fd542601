package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus' text format (0.0.4) read as a scraper reads it, for the tests of /metrics. */
public final class ExpositionText {
    /** A sample line: name, optional labels, value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_created");

    private ExpositionText() {
    }

    /** What {@code registry} serves now, in the text format. */
    static String render(PrometheusRegistry registry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The family types declared by {@code # TYPE}, each family declared once. */
    public static Map<String, String> types(String text) {
        Map<String, String> types = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                assertEquals(null, types.put(parts[2], parts[3]), "family " + parts[2] + " declared twice");
            }
        }
        return types;
    }

    /**
     * Every sample by its name and labels ({@code name{a="b"}}); each parses and belongs to a
     * declared family (a histogram's or summary's by its {@code _bucket}, {@code _count}, {@code _sum}).
     */
    public static Map<String, Double> samples(String text, Map<String, String> types) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            assertTrue(types.containsKey(family(m.group(1), types)), "sample of an undeclared family: " + line);
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(4)));
        }
        return samples;
    }

    /** The names of every sample served (a histogram's as {@code _bucket}, {@code _count}, {@code _sum}). */
    public static Set<String> sampleNames(String text) {
        Map<String, String> types = types(text);
        Set<String> names = new TreeSet<>();
        samples(text, types).keySet().forEach(s -> names.add(s.replaceAll("\\{.*", "")));
        return names;
    }

    private static String family(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : SUFFIXES) {
            if (sample.endsWith(suffix)) {
                return sample.substring(0, sample.length() - suffix.length());
            }
        }
        return sample;
    }
}
