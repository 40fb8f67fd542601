package io.mvsink.ops;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * A Kafka metrics registry (mvsink's shard metrics, or Kafka Streams' and its clients') as Prometheus
 * metric families, read at each scrape: a metric's name is {@code naming} of its Kafka name with
 * every character outside {@code [a-zA-Z0-9_]} as {@code _}, its tags are labels ({@code thread-id}
 * is {@code thread_id}). A name ending in {@code _total} is a counter, every other one a gauge; a
 * value that is not a number, or is NaN (a windowed statistic with no sample in its window), is
 * left out, as is a gauge whose name is a counter's without {@code _total} (Prometheus would take
 * them for one family) and a second metric of one family with the same labels.
 * <p>
 * With {@code seconds} set, a gauge named {@code *_ms} is also served as {@code *_seconds} (the
 * value / 1000), Prometheus' base unit, left out while it is negative (unknown).
 */
final class KafkaMetricsCollector implements MultiCollector {
    private static final String TOTAL = "_total";
    private static final String MS = "_ms";
    private final Supplier<Map<MetricName, ? extends Metric>> source;
    private final Function<MetricName, String> naming;
    private final boolean seconds;

    KafkaMetricsCollector(Supplier<Map<MetricName, ? extends Metric>> source, Function<MetricName, String> naming,
                          boolean seconds) {
        this.source = source;
        this.naming = naming;
        this.seconds = seconds;
    }

    /** mvsink's shard metrics as {@code mvsink_<name>} ({@code blob-puts-total} is {@code mvsink_blob_puts_total}). */
    static KafkaMetricsCollector shard(Supplier<Map<MetricName, ? extends Metric>> source) {
        return new KafkaMetricsCollector(source, n -> "mvsink_" + clean(n.name()), true);
    }

    /** Kafka's as {@code kafka_<group>_<name>} ({@code kafka_stream_thread_metrics_process_total}). */
    static KafkaMetricsCollector kafka(Supplier<Map<MetricName, ? extends Metric>> source) {
        return new KafkaMetricsCollector(source, n -> "kafka_" + clean(n.group()) + "_" + clean(n.name()), false);
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        for (Metric metric : source.get().values()) {
            double value = valueOf(metric);
            if (Double.isNaN(value)) {
                continue;
            }
            MetricName kafkaName = metric.metricName();
            String name = naming.apply(kafkaName);
            Labels labels = labels(kafkaName.tags());
            families.computeIfAbsent(name, n -> new Family(kafkaName.description())).points.putIfAbsent(labels, value);
            if (seconds && name.endsWith(MS) && value >= 0) {
                String inSeconds = name.substring(0, name.length() - MS.length()) + "_seconds";
                families.computeIfAbsent(inSeconds, n -> new Family("in seconds: " + kafkaName.description()))
                    .points.putIfAbsent(labels, value / 1000.0);
            }
        }
        List<MetricSnapshot> snapshots = new ArrayList<>();
        families.forEach((name, family) -> {
            if (name.endsWith(TOTAL)) {
                snapshots.add(counter(name, family));
            } else if (!families.containsKey(name + TOTAL)) {
                snapshots.add(gauge(name, family));
            }
        });
        return new MetricSnapshots(snapshots);
    }

    private static double valueOf(Metric metric) {
        try {
            return metric.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
        } catch (RuntimeException e) {
            return Double.NaN; // a gauge that cannot answer now (e.g. its client is closing) is not a sample
        }
    }

    private static CounterSnapshot counter(String name, Family family) {
        CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(family.help);
        family.points.forEach((labels, value) -> {
            if (value >= 0) {
                counter.dataPoint(CounterDataPointSnapshot.builder().labels(labels).value(value).build());
            }
        });
        return counter.build();
    }

    private static GaugeSnapshot gauge(String name, Family family) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(family.help);
        family.points.forEach((labels, value) ->
            gauge.dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build()));
        return gauge.build();
    }

    private static Labels labels(Map<String, String> tags) {
        Labels.Builder labels = Labels.builder();
        new TreeMap<>(tags).forEach((key, value) ->
            labels.label(PrometheusNaming.sanitizeLabelName(clean(key)), value == null ? "" : value));
        return labels.build();
    }

    /** A Prometheus name out of a Kafka one: every character outside [a-zA-Z0-9_] becomes '_'. */
    static String clean(String name) {
        return name.replaceAll("[^a-zA-Z0-9_]", "_");
    }

    /** One family's help and its samples by labels. */
    private static final class Family {
        private final String help;
        private final Map<Labels, Double> points = new LinkedHashMap<>();

        private Family(String help) {
            this.help = help == null ? "" : help;
        }
    }
}
