package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class InvalidTimestampMarkerTest {
    private final InvalidTimestampMarker marker = new InvalidTimestampMarker();

    @Test
    void shouldPassAValidTimestampThroughUnmarked() {
        ConsumerRecord<Object, Object> record = record(1_234L);

        assertEquals(1_234L, marker.extract(record, 99L));
        assertNull(record.headers().lastHeader(InvalidTimestampMarker.HEADER));
    }

    @Test
    void shouldMarkANegativeTimestampAndUseThePartitionTime() {
        ConsumerRecord<Object, Object> record = record(-1L);

        assertEquals(500L, marker.extract(record, 500L));
        Header header = record.headers().lastHeader(InvalidTimestampMarker.HEADER);
        assertEquals("-1", new String(header.value(), StandardCharsets.UTF_8));
    }

    @Test
    void shouldNeverReturnANegativeTimestampBeforeThePartitionHasATime() {
        assertEquals(0L, marker.extract(record(-1L), -1L));
    }

    @Test
    void shouldReplaceAMarkTheProducerSentWithTheTruth() {
        ConsumerRecord<Object, Object> record = record(-7L);
        record.headers().add(InvalidTimestampMarker.HEADER, "42".getBytes(StandardCharsets.UTF_8));

        marker.extract(record, 0L);
        assertEquals(1, record.headers().toArray().length);
        assertEquals("-7", new String(record.headers().lastHeader(InvalidTimestampMarker.HEADER).value(),
            StandardCharsets.UTF_8));
    }

    private static ConsumerRecord<Object, Object> record(long timestamp) {
        return new ConsumerRecord<>("c", 0, 0L, timestamp, TimestampType.CREATE_TIME, 0, 1, null, new byte[] {0},
            new RecordHeaders(), Optional.empty());
    }
}
