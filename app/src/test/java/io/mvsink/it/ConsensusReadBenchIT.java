package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.consensus.SealHistory;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.topology.TopicSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Benchmark, not run in CI (docs/BENCH.md, "A full read of a long-run consensus topic"): writes
 * the consensus records of {@code mvsink.bench.consensus.seals} seals with inline data (as a
 * long-running appender writes them: merges every 64 seals, a rollup every 100 appends, nothing
 * cleaned yet) and reads the shard back in a JVM with {@code -Xmx} of
 * each of {@code mvsink.bench.consensus.heaps} (comma-separated, default 48m), printing the figures.
 */
@ExtendWith(LocalStackExtension.class)
@EnabledIfSystemProperty(named = "mvsink.bench.consensus.seals", matches = "\\d+")
class ConsensusReadBenchIT {

    @Test
    void shouldReadALongRunsConsensusTopicInASmallHeap(LocalStack stack) throws Exception {
        int seals = Integer.getInteger("mvsink.bench.consensus.seals");
        int inlineBytes = Integer.getInteger("mvsink.bench.consensus.inline.bytes", 2048);
        String heaps = System.getProperty("mvsink.bench.consensus.heaps", "48m");
        String topic = "bench-" + UUID.randomUUID().toString().substring(0, 8) + "-consensus";
        SealHistory history = new SealHistory("orders", seals, inlineBytes, 64, 100);
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())
                .configs(TopicSettings.BROKER_DEFAULTS.consensusTopicConfigs()))).all().get(60, TimeUnit.SECONDS);
        }
        long records = 0;
        long bytes = 0;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(),
                new ByteArraySerializer())) {
            for (Map.Entry<String, byte[]> r : history) {
                producer.send(new ProducerRecord<>(topic, 0, r.getKey(), r.getValue()));
                records++;
                bytes += r.getValue() == null ? 0 : r.getValue().length;
            }
            producer.flush();
        }

        int failed = 0;
        for (String heap : heaps.split(",")) {
            Path log = Files.createTempFile("consensus-read-probe", ".log");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                ConsensusReadProbe.class.getName(), stack.bootstrapServers(), topic, "orders"));
            Process probe = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(probe.waitFor(10, TimeUnit.MINUTES), "probe did not finish");
            String out = Files.readString(log, StandardCharsets.UTF_8);
            String figures = out.lines().filter(l -> l.startsWith("probe:") || l.contains("OutOfMemory")).findFirst()
                .orElse("probe: no figures");
            System.err.printf("ConsensusReadBenchIT: seals=%d inlineBytes=%d records=%d valueMiB=%.1f heap=%s exit=%d "
                + "%s%n", seals, inlineBytes, records, bytes / 1048576.0, heap, probe.exitValue(), figures);
            if (probe.exitValue() != 0 || !figures.contains("upper=" + history.upper() + " ")) {
                failed++;
            }
        }
        assertEquals(0, failed, "reads that failed (figures above)");
    }
}
