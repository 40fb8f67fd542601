package io.mvsink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A stream thread killed mid-transaction (issue 12 item 13): its open transaction holds the last
 * stable offset of what it wrote, so no read_committed reader (the appender, a restoring task) gets
 * past it until the broker times it out; {@link DepartedTransactions} aborts it as soon as no member
 * of the app's group owns its transactional id.
 */
@ExtendWith(LocalStackExtension.class)
class DepartedTransactionsIT {

    @Test
    void shouldReleaseReadersHeldByAKilledThreadsOpenTransaction(LocalStack stack) throws Exception {
        String app = "departed-" + UUID.randomUUID().toString().substring(0, 8);
        TopicPartition reports = new TopicPartition(app + "-reports", 0);
        Map<String, Object> client = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(reports.topic(), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            KafkaProducer<String, String> killed = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, app + "-" + UUID.randomUUID() + "-1",
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000), new StringSerializer(), new StringSerializer());
            try {
                killed.initTransactions();
                killed.beginTransaction();
                killed.send(new ProducerRecord<>(reports.topic(), "shard", "report")).get(30, TimeUnit.SECONDS);
                // the thread is gone: nobody commits or aborts, and its transaction holds the reports topic
                Thread.sleep(DepartedTransactions.MIN_AGE_MS + 1_000);
                assertEquals(0, lastStable(admin, reports), "a read_committed reader is held at the open transaction");

                Set<String> fenced;
                try (DepartedTransactions departed = new DepartedTransactions(admin, app)) {
                    fenced = departed.fenceDeparted();
                }

                assertEquals(1, fenced.size(), "the killed thread's transaction is fenced");
                await().atMost(Duration.ofSeconds(5)).until(() -> lastStable(admin, reports) == 2);
            } finally {
                killed.close(Duration.ZERO);
            }
        }
    }

    /** The partition's last stable offset: how far a read_committed reader can read. */
    private static long lastStable(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
            .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
    }
}
