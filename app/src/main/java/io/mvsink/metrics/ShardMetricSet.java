package io.mvsink.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Percentile;
import org.apache.kafka.common.metrics.stats.Percentiles;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.common.utils.Time;

/**
 * One shard's {@link ShardMetrics} in Kafka's metrics library: one {@link Metrics} registry per app,
 * every metric in group {@value #GROUP} with tag {@code shard} (invariant 7: two shards of one JVM
 * never share a name). Counters are {@code <name>-total} (monotonic since the app started), gauges
 * plain names (current values, or a mean over two counters), the seal latency a sensor with
 * {@code -avg}, {@code -max}, {@code -p50}, {@code -p99} over a time window ({@value #WINDOW_S} s,
 * {@value #SAMPLES} samples: a sample older than {@code WINDOW_S * SAMPLES} is forgotten) and
 * {@code appends-rate}. Reading never changes anything; {@link #close()} removes every metric (and
 * unregisters the MBeans the registry's reporters made).
 */
public final class ShardMetricSet implements AutoCloseable {
    /** The metric group, the JMX {@code type}. */
    public static final String GROUP = "mvsink-shard-metrics";
    /** The JMX domain of mvsink's metrics (the registry's namespace). */
    public static final String PREFIX = "mvsink";
    static final int WINDOW_S = 30;
    static final int SAMPLES = 2;
    /** Seal latencies above this (ms) land in the percentile histogram's last bucket; {@code -max} stays exact. */
    static final double LATENCY_HISTOGRAM_MAX_MS = 600_000;
    private static final int HISTOGRAM_BYTES = 4_000;
    private static final String SEAL_LATENCY = "seal-latency";

    private final Metrics registry;
    private final ShardMetrics source;
    private final LongConsumer latencyListener;

    private ShardMetricSet(Metrics registry, ShardMetrics source, LongConsumer latencyListener) {
        this.registry = registry;
        this.source = source;
        this.latencyListener = latencyListener;
    }

    /**
     * A registry for {@code m}'s shard read by {@code reporters} (e.g. a JMX reporter), clocked by
     * {@code time}; {@code builders} reads the batch coalescer's gauges and each of
     * {@code deadLetterReasons} (e.g. {@code bad-magic}) gets its own counter
     * ({@code dead-lettered-bad-magic-total}).
     */
    public static ShardMetricSet create(ShardMetrics m, BuilderGauges builders, List<String> deadLetterReasons,
                                        Time time, List<MetricsReporter> reporters) {
        MetricConfig config = new MetricConfig().tags(Map.of("shard", m.shard()));
        KafkaMetricsContext context = new KafkaMetricsContext(PREFIX);
        Metrics registry = new Metrics(config, new ArrayList<>(), time, context);
        try {
            ShardMetricDeclarations.declare(new Declarer(registry), m, builders, deadLetterReasons);
            Sensor latency = sealLatencySensor(registry);
            // reporters join once every metric exists: Kafka's JMX reporter registers an MBean again
            // for each metric added to it, so a client polling at start would see it vanish or half-filled
            for (MetricsReporter reporter : reporters) {
                reporter.contextChange(context);
                registry.addReporter(reporter);
            }
            LongConsumer listener = latency::record;
            m.sealLatencyListener(listener);
            return new ShardMetricSet(registry, m, listener);
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
    }

    private static Sensor sealLatencySensor(Metrics registry) {
        MetricConfig windowed = new MetricConfig().tags(registry.config().tags())
            .timeWindow(WINDOW_S, TimeUnit.SECONDS).samples(SAMPLES);
        Sensor sensor = registry.sensor(SEAL_LATENCY, windowed);
        String window = " over the last " + WINDOW_S * SAMPLES + " s at most";
        sensor.add(name(registry, "seal-latency-avg", "mean seal latency (interval closed at its last partition to "
            + "sealed), ms," + window), new Avg());
        sensor.add(name(registry, "seal-latency-max", "highest seal latency, ms," + window), new Max());
        sensor.add(new Percentiles(HISTOGRAM_BYTES, LATENCY_HISTOGRAM_MAX_MS, Percentiles.BucketSizing.LINEAR,
            new Percentile(name(registry, "seal-latency-p50", "median seal latency, ms," + window), 50),
            new Percentile(name(registry, "seal-latency-p99", "99th percentile seal latency, ms," + window), 99)));
        sensor.add(name(registry, "appends-rate", "seals (appends) per second," + window),
            new Rate(new WindowedCount()));
        return sensor;
    }

    private static MetricName name(Metrics registry, String name, String description) {
        return registry.metricName(name, GROUP, description);
    }

    /** The counter of dead-letter reason {@code reason}: {@code bad-magic} is {@code dead-lettered-bad-magic-total}. */
    public static String deadLetterCounter(String reason) {
        return ShardMetricDeclarations.reasonCounter(reason) + "-total";
    }

    /** Every metric of the shard (not the registry's own bookkeeping), by name. */
    public Map<MetricName, ? extends Metric> metrics() {
        return registry.metrics().entrySet().stream().filter(e -> e.getKey().group().equals(GROUP))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** The value of the metric {@code name} now (a counter, gauge or windowed statistic); NaN when unknown. */
    public double value(String name) {
        Metric metric = registry.metric(registry.metricName(name, GROUP));
        return metric == null ? Double.NaN : ((Number) metric.metricValue()).doubleValue();
    }

    @Override
    public void close() {
        source.removeSealLatencyListener(latencyListener);
        registry.removeSensor(SEAL_LATENCY);
        List.copyOf(metrics().keySet()).forEach(registry::removeMetric);
        registry.close();
    }

    /** Adds counters and gauges that read {@link ShardMetrics} when asked. */
    static final class Declarer {
        private final Metrics registry;

        private Declarer(Metrics registry) {
            this.registry = registry;
        }

        /** {@code <name>-total}: a count since the app started. */
        void counter(String name, String description, LongSupplier value) {
            registry.addMetric(name(registry, name + "-total", description), (config, now) -> value.getAsLong());
        }

        /** A current value. */
        void gauge(String name, String description, LongSupplier value) {
            registry.addMetric(name(registry, name, description), (config, now) -> value.getAsLong());
        }

        /** A current value that depends on the registry's time. */
        void clockGauge(String name, String description, NowGauge value) {
            registry.addMetric(name(registry, name, description), (config, now) -> value.at(now));
        }

        /** {@code total / count}, 0 before the first event. */
        void mean(String name, String description, LongSupplier total, LongSupplier count) {
            registry.addMetric(name(registry, name, description), (config, now) -> {
                long n = count.getAsLong();
                return n == 0 ? 0.0 : (double) total.getAsLong() / n;
            });
        }
    }

    /** A gauge read at the registry's time {@code nowMs}. */
    @FunctionalInterface
    interface NowGauge {
        double at(long nowMs);
    }
}
