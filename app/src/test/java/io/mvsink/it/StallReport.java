package io.mvsink.it;

import io.mvsink.avro.Contribution;
import io.mvsink.codec.Codecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the broker says when a shard stops sealing: open transactions (a killed member's open
 * transaction holds back every read_committed reader of its partitions), partitions of the
 * app's topics whose last stable offset lags their end, and the group's committed offsets of
 * the reports topic (the appender's input).
 */
final class StallReport {
    private StallReport() {
    }

    static String describe(Map<String, Object> clientProps, String applicationId, String correctionsTopic,
                           long upper) {
        StringBuilder text = new StringBuilder("stall report for " + applicationId + " at " + System.currentTimeMillis() + "\n");
        try (Admin admin = Admin.create(clientProps)) {
            openTransactions(admin, applicationId, text);
            unstablePartitions(admin, applicationId, correctionsTopic, text);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(applicationId)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            committed.forEach((tp, offset) -> {
                if (tp.topic().equals(applicationId + "-reports")) {
                    text.append("  group offset ").append(tp).append(" = ").append(offset.offset()).append('\n');
                }
            });
            chains(clientProps, applicationId + "-reports", upper, text);
        } catch (Exception e) {
            text.append("  (report incomplete: ").append(e).append(")\n");
        }
        return text.toString();
    }

    /**
     * Per partition: the contributions reported from {@code upper} on (the first 40 starts), as
     * {@code start->end|end}, relative to the upper: a partition with nothing at 0, or a gap in its
     * chain, is what the appender waits for.
     */
    private static void chains(Map<String, Object> clientProps, String topic, long upper, StringBuilder text) {
        Map<Integer, Map<Long, Set<Long>>> byStart = new TreeMap<>();
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        int reports = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    for (Contribution c : Codecs.REPORT.decode(r.value()).getBatch().getContributions()) {
                        if (c.getLower() >= upper) {
                            reports++;
                            byStart.computeIfAbsent(c.getPartition(), p -> new TreeMap<>())
                                .computeIfAbsent(c.getLower(), l -> new TreeSet<>()).add(c.getUpper());
                        }
                    }
                }
            }
        }
        text.append("  ").append(reports).append(" contributions reported from upper ").append(upper).append(":\n");
        byStart.forEach((partition, starts) -> text.append("    partition ").append(partition).append(": ")
            .append(starts.entrySet().stream().limit(40).map(e -> (e.getKey() - upper) + "->" + e.getValue().stream()
                .map(u -> Long.toString(u - upper)).collect(Collectors.joining("|"))).collect(Collectors.joining(" ")))
            .append('\n'));
    }

    private static void openTransactions(Admin admin, String applicationId, StringBuilder text) throws Exception {
        List<String> ids = new ArrayList<>();
        for (TransactionListing listing : admin.listTransactions().all().get(30, TimeUnit.SECONDS)) {
            if (listing.transactionalId().startsWith(applicationId)) {
                ids.add(listing.transactionalId());
            }
        }
        Map<String, TransactionDescription> described = new TreeMap<>(
            admin.describeTransactions(ids).all().get(30, TimeUnit.SECONDS));
        described.forEach((id, d) -> {
            if (!d.topicPartitions().isEmpty()) {
                text.append("  transaction ").append(id).append(' ').append(d.state()).append(" producer ")
                    .append(d.producerId()).append('/').append(d.producerEpoch()).append(" started ")
                    .append(d.transactionStartTimeMs().orElse(-1)).append(" timeout ").append(d.transactionTimeoutMs())
                    .append(" partitions ").append(d.topicPartitions()).append('\n');
            }
        });
    }

    private static void unstablePartitions(Admin admin, String applicationId, String correctionsTopic,
                                           StringBuilder text) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (String topic : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
            if (topic.startsWith(applicationId) && !topic.equals(correctionsTopic)) {
                admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            }
        }
        Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, ListOffsetsResultInfo> stable = admin.listOffsets(latest,
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(30, TimeUnit.SECONDS);
        end.forEach((tp, info) -> {
            long lso = stable.get(tp).offset();
            if (lso < info.offset()) {
                text.append("  unstable ").append(tp).append(": end ").append(info.offset()).append(", last stable ")
                    .append(lso).append('\n');
            }
        });
    }
}
