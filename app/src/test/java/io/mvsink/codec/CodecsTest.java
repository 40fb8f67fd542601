package io.mvsink.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.TaskProgress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class CodecsTest {

    @Test
    void shouldRoundTripEveryStoredType() {
        assertRoundTrip(Codecs.BATCH, StoredValues.batch());
        assertRoundTrip(Codecs.REPORT, StoredValues.report());
        assertRoundTrip(Codecs.STATE_DIFF, StoredValues.stateDiff());
        assertRoundTrip(Codecs.APPENDER_STATE, StoredValues.appenderState());
        assertRoundTrip(Codecs.TASK_PROGRESS, StoredValues.taskProgress());
    }

    @Test
    void shouldRoundTripExtremeLongs() {
        assertRoundTrip(Codecs.TASK_PROGRESS, new TaskProgress(Long.MIN_VALUE, Long.MAX_VALUE, 0L));
    }

    @Test
    void shouldRejectTrailingBytes() {
        byte[] bytes = Codecs.STATE_DIFF.encode(StoredValues.stateDiff());
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> Codecs.STATE_DIFF.decode(longer));
        assertEquals("StateDiff has trailing bytes", e.getMessage());
    }

    @Test
    void shouldRejectTruncatedBytes() {
        byte[] bytes = Codecs.REPORT.encode(StoredValues.report());

        assertThrows(CorruptRecordException.class,
            () -> Codecs.REPORT.decode(Arrays.copyOf(bytes, bytes.length - 1)));
        assertThrows(CorruptRecordException.class, () -> Codecs.REPORT.decode(new byte[0]));
    }

    @Test
    void shouldRejectGarbage() {
        byte[] garbage = new byte[16];
        Arrays.fill(garbage, (byte) 0xFF); // a varint that never ends

        for (SpecificCodec<?> codec : List.of(Codecs.BATCH, Codecs.REPORT, Codecs.STATE_DIFF,
                Codecs.APPENDER_STATE, Codecs.TASK_PROGRESS)) {
            assertThrows(CorruptRecordException.class, () -> codec.decode(garbage), codec.schema().getName());
        }
    }

    @Test
    void shouldRejectANegativeStringLength() {
        byte[] negativeLength = {0x01, 'a', 'b'}; // zig-zag 0x01 = -1

        assertThrows(CorruptRecordException.class, () -> Codecs.APPENDER_STATE.decode(negativeLength));
    }

    @Test
    void shouldReadAppenderStateWrittenBeforePendingGarbageExisted() throws IOException {
        Schema older = new Schema.Parser().parse("""
            {"type": "record", "name": "AppenderState", "namespace": "io.mvsink.avro", "fields": [
              {"name": "shard", "type": "string"}, {"name": "upper", "type": "long"},
              {"name": "seqno", "type": "long"}, {"name": "partitionCount", "type": "int"}]}""");
        GenericRecord old = new GenericData.Record(older);
        old.put("shard", "orders");
        old.put("upper", 2_000L);
        old.put("seqno", 2L);
        old.put("partitionCount", 3);

        AppenderState read = Codecs.APPENDER_STATE.decode(encode(older, old), older);

        assertEquals(new AppenderState("orders", 2_000L, 2L, 3, List.of(), 0L, 0L, ""), read);
    }

    @Test
    void shouldFrameOnlyATypeThatStartsWithAStringAndHasAnEarlierVersion() {
        // TaskProgress starts with a long: a marker byte could be the start of its value
        assertThrows(IllegalArgumentException.class, () -> SpecificCodec.framed(TaskProgress.class));
        // AppenderState starts with a string but has not been framed: its earlier versions exist, so it could be
        assertEquals(SpecificCodec.FRAME_MARKER, SpecificCodec.framed(AppenderState.class)
            .encode(StoredValues.appenderState())[0]);
        assertNotEquals(SpecificCodec.FRAME_MARKER, Codecs.APPENDER_STATE.encode(StoredValues.appenderState())[0]);
    }

    @Test
    void shouldRefuseAClassThatIsNotAnAvroRecord() {
        assertThrows(IllegalArgumentException.class, () -> SpecificCodec.of(NotAvro.class));
    }

    private static <T extends SpecificRecord> void assertRoundTrip(SpecificCodec<T> codec, T value) {
        byte[] bytes = codec.encode(value);
        assertEquals(value, codec.decode(bytes), codec.schema().getName());
        assertEquals(value, codec.decode(bytes, new Schema.Parser().parse(codec.schema().toString())),
            codec.schema().getName() + " read with an equal but distinct writer schema");
    }

    private static byte[] encode(Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private abstract static class NotAvro implements SpecificRecord {
    }
}
