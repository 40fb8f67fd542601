package io.mvsink.ops;

import io.mvsink.metrics.LatencyHistogram;
import io.mvsink.metrics.ShardMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * What {@code /metrics} serves, as one Prometheus registry of its own per app (never the client's
 * static default registry, so two apps in one JVM never share one): the JVM's and the process's
 * metrics (the client's {@code JvmMetrics}: {@code jvm_memory_*}, {@code jvm_gc_*},
 * {@code jvm_threads_*}, {@code process_*}), the shard's metrics ({@code mvsink_*}), its seal latency
 * as the histogram {@value #SEAL_LATENCY} and Kafka Streams' and its clients' own
 * ({@code kafka_*}). Everything is read when scraped.
 */
public final class ScrapeRegistry {
    /** The seal latency histogram's name (its samples: {@code _bucket}, {@code _sum}, {@code _count}). */
    public static final String SEAL_LATENCY = "mvsink_seal_latency_seconds";

    private ScrapeRegistry() {
    }

    /**
     * The registry of one app: {@code shard} and {@code kafka} are its metrics registries as they
     * are now (empty while there is none), {@code metrics} its shard's counters.
     */
    public static PrometheusRegistry of(ShardMetrics metrics, Supplier<Map<MetricName, ? extends Metric>> shard,
                                        Supplier<Map<MetricName, ? extends Metric>> kafka) {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        registry.register(KafkaMetricsCollector.shard(shard));
        registry.register(sealLatency(metrics));
        registry.register(KafkaMetricsCollector.kafka(kafka));
        return registry;
    }

    private static MultiCollector sealLatency(ShardMetrics metrics) {
        return () -> {
            LatencyHistogram.Snapshot seen = metrics.sealLatencyHistogram().snapshot();
            double[] bounds = Arrays.copyOf(seen.boundsSeconds(), seen.boundsSeconds().length + 1);
            bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
            return MetricSnapshots.of(HistogramSnapshot.builder().name(SEAL_LATENCY)
                .help("seal latency (interval closed at its last partition to sealed), seconds, since the app started")
                .dataPoint(HistogramDataPointSnapshot.builder().labels(Labels.of("shard", metrics.shard()))
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, seen.counts()))
                    .sum(seen.sumSeconds()).build())
                .build());
        };
    }
}
