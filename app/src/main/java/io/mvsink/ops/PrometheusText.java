package io.mvsink.ops;

import io.mvsink.metrics.ShardMBean;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Metrics in the Prometheus text exposition format (version 0.0.4): mvsink's shard metrics as
 * {@code mvsink_<name>} with label {@code shard} (a counter {@code BlobPuts} is
 * {@code mvsink_blob_puts_total}, typed counter), and Kafka Streams' and its clients' metrics as
 * {@code kafka_<group>_<name>} with their tags as labels (a name ending in {@code -total} typed
 * counter, every other numeric one a gauge, non-numeric ones left out).
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** The exposition of one shard's metrics and its Kafka Streams app's. */
    public static String render(String shard, List<ShardMBean.Reading> shardMetrics,
                                Map<MetricName, ? extends Metric> kafkaMetrics) {
        StringBuilder out = new StringBuilder();
        for (ShardMBean.Reading r : shardMetrics) {
            if (!(r.value() instanceof Number value)) {
                continue;
            }
            boolean counter = r.kind() == ShardMBean.Kind.COUNTER;
            String name = "mvsink_" + snake(r.name()) + (counter ? "_total" : "");
            family(out, name, r.description(), counter);
            sample(out, name, Map.of("shard", shard), value.doubleValue());
        }
        kafka(out, kafkaMetrics.values());
        return out.toString();
    }

    private static void kafka(StringBuilder out, Collection<? extends Metric> metrics) {
        Map<String, Map<Map<String, String>, Double>> families = new TreeMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        for (Metric metric : metrics) {
            if (!(metric.metricValue() instanceof Number value) || Double.isNaN(value.doubleValue())) {
                continue;
            }
            MetricName n = metric.metricName();
            String name = "kafka_" + clean(n.group()) + "_" + clean(n.name());
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

    /** {@code BlobPuts} is {@code blob_puts}; {@code SealLatencyP99Ms} is {@code seal_latency_p99_ms}. */
    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    /** A Prometheus name out of a Kafka one: every character outside [a-zA-Z0-9_] becomes '_'. */
    static String clean(String name) {
        return name.replaceAll("[^a-zA-Z0-9_]", "_");
    }
}
