package io.mvsink.ops;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Metrics in the Prometheus text exposition format (version 0.0.4), both registries the same way:
 * mvsink's shard metrics as {@code mvsink_<name>} ({@code blob-puts-total} is
 * {@code mvsink_blob_puts_total}, label {@code shard}), and Kafka Streams' and its clients' as
 * {@code kafka_<group>_<name>}, their tags as labels. A name ending in {@code -total} is typed
 * counter, every other numeric one a gauge; non-numeric and NaN values (a windowed statistic with no
 * sample in its window) are left out.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** The exposition of one shard's metrics and its Kafka Streams app's. */
    public static String render(Map<MetricName, ? extends Metric> shardMetrics,
                                Map<MetricName, ? extends Metric> kafkaMetrics) {
        StringBuilder out = new StringBuilder();
        families(out, shardMetrics.values(), n -> "mvsink_" + clean(n.name()));
        families(out, kafkaMetrics.values(), n -> "kafka_" + clean(n.group()) + "_" + clean(n.name()));
        return out.toString();
    }

    private static void families(StringBuilder out, Collection<? extends Metric> metrics,
                                 Function<MetricName, String> naming) {
        Map<String, Map<Map<String, String>, Double>> families = new TreeMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        for (Metric metric : metrics) {
            if (!(metric.metricValue() instanceof Number value) || Double.isNaN(value.doubleValue())) {
                continue;
            }
            MetricName n = metric.metricName();
            String name = naming.apply(n);
            families.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(new TreeMap<>(n.tags()), value.doubleValue());
            help.putIfAbsent(name, n.description());
        }
        families.forEach((name, samples) -> {
            boolean counter = name.endsWith("_total");
            family(out, name, help.get(name), counter);
            samples.forEach((labels, value) -> sample(out, name, labels, value));
        });
    }

    private static void family(StringBuilder out, String name, String help, boolean counter) {
        out.append("# HELP ").append(name).append(' ')
            .append(help == null ? "" : help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(counter ? " counter" : " gauge").append('\n');
    }

    private static void sample(StringBuilder out, String name, Map<String, String> labels, double value) {
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(clean(label.getKey())).append("=\"").append(label.getValue().replace("\\", "\\\\")
                    .replace("\"", "\\\"").replace("\n", "\\n")).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(value == Math.rint(value) && Math.abs(value) < 1e15
            ? Long.toString((long) value) : Double.toString(value)).append('\n');
    }

    /** A Prometheus name out of a Kafka one: every character outside [a-zA-Z0-9_] becomes '_'. */
    static String clean(String name) {
        return name.replaceAll("[^a-zA-Z0-9_]", "_");
    }
}
