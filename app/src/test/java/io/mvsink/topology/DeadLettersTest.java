package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.metrics.ShardMetrics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** Bad input to the dead-letter topic, whole when it fits the producer's requests, without its value when not. */
class DeadLettersTest {
    private static final int BOUND = 4_096;

    private final MockProcessorContext<byte[], byte[]> context = new MockProcessorContext<>();
    private final DeadLetters letters = new DeadLetters(context, new ShardMetrics("s"), BOUND);

    DeadLettersTest() {
        context.setCurrentSystemTimeMs(5_000);
    }

    @Test
    void shouldCopyARecordThatFitsWhole() {
        context.setRecordMetadata("c", 0, 12);
        letters.send(record(new byte[100]), "bad-magic", "first byte 7");

        Record<byte[], byte[]> letter = only();
        assertArrayEquals(new byte[100], letter.value());
        assertNull(letter.headers().lastHeader(DeadLetters.VALUE_BYTES));
        assertEquals("1", text(letter, "mvsink.diff"), "the record's own headers are kept");
    }

    /**
     * A value as large as a producer may write, plus the dead letter's headers, is over the sink's
     * own request size: the send failed and the task stopped at the same record at every restart.
     */
    @Test
    void shouldDropTheValueOfARecordTooLargeToCopyAndSayHowLargeItWas() {
        context.setRecordMetadata("c", 0, 12);
        letters.send(record(new byte[BOUND]), "bad-magic", "first byte 7");

        Record<byte[], byte[]> letter = only();
        assertNull(letter.value());
        assertEquals(Integer.toString(BOUND), text(letter, DeadLetters.VALUE_BYTES));
        assertTrue(text(letter, DeadLetters.DETAIL).startsWith("first byte 7 (the value of 4096 bytes is not copied"),
            text(letter, DeadLetters.DETAIL));
        assertEquals("12", text(letter, DeadLetters.OFFSET), "where the record is");
        assertEquals("1", text(letter, "mvsink.diff"));
        assertArrayEquals("k".getBytes(StandardCharsets.UTF_8), letter.key());
    }

    @Test
    void shouldDropTheKeyAndHeadersTooIfTheyAloneAreTooLarge() {
        context.setRecordMetadata("c", 0, 12);
        RecordHeaders headers = new RecordHeaders();
        headers.add("noise", new byte[BOUND]);
        letters.send(new Record<>(new byte[BOUND], new byte[10], 1_000L, headers), "bad-magic", "first byte 7");

        Record<byte[], byte[]> letter = only();
        assertNull(letter.key());
        assertNull(letter.value());
        assertNull(letter.headers().lastHeader("noise"));
        assertEquals("10", text(letter, DeadLetters.VALUE_BYTES));
        assertEquals("bad-magic", text(letter, DeadLetters.REASON));
    }

    private static Record<byte[], byte[]> record(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("mvsink.diff", "1".getBytes(StandardCharsets.UTF_8));
        return new Record<>("k".getBytes(StandardCharsets.UTF_8), value, 1_000L, headers);
    }

    private Record<byte[], byte[]> only() {
        List<MockProcessorContext.CapturedForward<? extends byte[], ? extends byte[]>> sent = context.forwarded();
        assertEquals(1, sent.size());
        @SuppressWarnings("unchecked")
        Record<byte[], byte[]> letter = (Record<byte[], byte[]>) sent.get(0).record();
        return letter;
    }

    private static String text(Record<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
