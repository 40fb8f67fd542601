package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input as large as the producer may send (a value of 1,048,400 bytes that is not Avro). Its
 * dead letter is the record plus the headers that say why and where: before this test that copy
 * was over the sink's producer's {@code max.request.size}, the send failed with
 * {@code RecordTooLargeException}, and the app stopped at that record at every restart, so nothing
 * after it on the partition was ever sealed. Now the dead letter keeps the headers and drops the
 * value, saying how large it was, and the good updates after it are sealed.
 */
@ExtendWith(LocalStackExtension.class)
class LargeDeadLetterIT {
    private static final int BAD_VALUE_BYTES = 1_048_400;

    @Test
    void shouldDeadLetterARecordTooLargeToCopyWithoutItsValueAndSealWhatFollows(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 1, new Properties());
             CorrectionProducer producer = sink.producer();
             KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(sink.clientProps(),
                 new ByteArraySerializer(), new ByteArraySerializer())) {
            MvsinkApp app = sink.startApp(1);
            byte[] notAvro = new byte[BAD_VALUE_BYTES];
            Arrays.fill(notAvro, (byte) '{');
            raw.send(new ProducerRecord<>(sink.correctionsTopic(), 0, 1_000L,
                "big".getBytes(StandardCharsets.UTF_8), notAvro)).get(30, TimeUnit.SECONDS);
            Workload workload = sink.sealSmallUpdatesAfter(app, producer, Duration.ofSeconds(60));
            // the topic model cannot read the bad record: the workload's own model is the reference here
            assertEquals(SinkHarness.snapshotOf(workload), sink.snapshot(sink.state()));
            sink.assertEveryAppendIsAnExactCover();
            List<ConsumerRecord<byte[], byte[]>> dead = sink.deadLetters(1);
            assertEquals(1, dead.size());
            ConsumerRecord<byte[], byte[]> letter = dead.get(0);
            assertEquals("bad-magic", SinkHarness.header(letter, "mvsink.dlq.reason"));
            assertNull(letter.value(), "the value is not copied");
            assertEquals(Integer.toString(BAD_VALUE_BYTES), SinkHarness.header(letter, "mvsink.dlq.value.bytes"));
            assertTrue(SinkHarness.header(letter, "mvsink.dlq.detail").contains("not copied"),
                SinkHarness.header(letter, "mvsink.dlq.detail"));
            assertEquals("0", SinkHarness.header(letter, "mvsink.dlq.offset"), "where to find the record");
        }
    }
}
