package io.mvsink.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class CorrectionProducerTest {
    private static final String TOPIC = "corrections";
    private static final Node NODE = new Node(0, "localhost", 9092);

    private final MockProducer<byte[], byte[]> kafka = new MockProducer<>(cluster(2), false, null,
        new ByteArraySerializer(), new ByteArraySerializer());
    private final CorrectionProducer producer = new CorrectionProducer(kafka, TOPIC, TOPIC + "-value",
        new InMemorySchemaRegistry());
    private final Workload workload = new Workload(1, 10, 0.0);

    @Test
    void shouldFailTheFlushOfASendThatFailed() {
        Workload.Correction c = workload.next();
        producer.update(c.key(), c.row(), 1_000, 1);
        producer.update(c.key(), c.row(), 1_001, 1);
        kafka.errorNext(new TimeoutException("Expiring 1 record(s) for corrections-1: 120000 ms has passed"));

        IllegalStateException failed = assertThrows(IllegalStateException.class, producer::flush);

        assertTrue(failed.getMessage().contains("1 of 2 records"), failed.getMessage());
        assertTrue(failed.getMessage().contains("120000 ms has passed"), failed.getMessage());
    }

    @Test
    void shouldRefuseToSendProgressPastAFailedUpdate() {
        Workload.Correction c = workload.next();
        producer.update(c.key(), c.row(), 1_000, 1);
        kafka.errorNext(new TimeoutException("expired"));

        // a progress record after a lost update would let the sink seal without it
        assertThrows(IllegalStateException.class, () -> producer.progress(2_000));
        assertEquals(1, kafka.history().size(), "no progress record was sent");
    }

    @Test
    void shouldFlushQuietlyWhenEverySendSucceeded() {
        Workload.Correction c = workload.next();
        producer.update(c.key(), c.row(), 1_000, 1);
        producer.progress(2_000);

        producer.flush();

        assertEquals(3, kafka.history().size());
    }

    private static Cluster cluster(int partitions) {
        List<PartitionInfo> infos = new java.util.ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            infos.add(new PartitionInfo(TOPIC, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
        }
        return new Cluster("cluster", List.of(NODE), infos, java.util.Set.of(), java.util.Set.of());
    }
}
