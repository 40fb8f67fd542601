package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class AvroRowCodecTest {
    private static final Schema ROW = SchemaBuilder.record("Row").namespace("t").fields()
            .requiredLong("id").optionalString("name").requiredDouble("price").endRecord();

    private final CountingRegistry registry = new CountingRegistry();
    private final AvroRowCodec codec = new AvroRowCodec(registry, "rows-value");

    @Test
    void shouldRoundTripRow() {
        GenericRecord row = row(42, "apple", 1.5);

        byte[] framed = codec.serialize(row);

        assertEquals(1, WireFormat.schemaId(framed));
        assertEquals(row, codec.deserialize(framed));
    }

    @Test
    void shouldRoundTripNullField() {
        GenericRecord row = row(1, null, 0.0);

        assertEquals(row, codec.deserialize(codec.serialize(row)));
    }

    @Test
    void shouldRegisterSchemaOnce() {
        codec.serialize(row(1, "a", 1));
        codec.serialize(row(2, "b", 2));

        assertEquals(1, registry.registrations.get());
        assertEquals(1, codec.schemaId(ROW));
    }

    @Test
    void shouldFetchWriterSchemaOncePerId() {
        byte[] framed = codec.serialize(row(1, "a", 1));
        AvroRowCodec reader = new AvroRowCodec(registry, "rows-value");

        reader.deserialize(framed);
        reader.deserialize(framed);

        assertEquals(1, registry.lookups.get());
    }

    @Test
    void shouldReadWithWriterSchemaOfTheId() {
        Schema v2 = SchemaBuilder.record("Row").namespace("t").fields()
                .requiredLong("id").optionalString("name").requiredDouble("price").optionalLong("stock").endRecord();
        GenericRecord newer = new GenericData.Record(v2);
        newer.put("id", 5L);
        newer.put("price", 2.0);
        newer.put("stock", 9L);

        byte[] v1Bytes = codec.serialize(row(1, "a", 1));
        byte[] v2Bytes = codec.serialize(newer);

        assertEquals(ROW, codec.deserialize(v1Bytes).getSchema());
        assertSame(registry.schemaById(WireFormat.schemaId(v2Bytes)), codec.deserialize(v2Bytes).getSchema());
        assertEquals(9L, codec.deserialize(v2Bytes).get("stock"));
    }

    @Test
    void shouldValidateWellFormedValueAndReturnItsSchemaId() {
        assertEquals(1, codec.validate(codec.serialize(row(1, "a", 1))));
    }

    @Test
    void shouldRejectTruncatedPayloadAsUndecodable() {
        byte[] framed = codec.serialize(row(1, "apple", 1));
        byte[] truncated = Arrays.copyOf(framed, framed.length - 3);

        BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> codec.validate(truncated));
        assertEquals("undecodable", e.reason());
    }

    @Test
    void shouldRejectTrailingBytesAsUndecodable() {
        byte[] framed = codec.serialize(row(1, "apple", 1));
        byte[] longer = Arrays.copyOf(framed, framed.length + 1);

        BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> codec.deserialize(longer));
        assertEquals("undecodable", e.reason());
    }

    @Test
    void shouldRejectHugeDeclaredStringLengthAsUndecodable() {
        // id 1, then the union branch 1 (string) with a length of 2^30
        byte[] avro = {2, 2, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};
        codec.schemaId(ROW);

        BadWireFormatException e = assertThrows(BadWireFormatException.class,
                () -> codec.validate(WireFormat.encode(1, avro)));
        assertEquals("undecodable", e.reason());
    }

    @Test
    void shouldRoundTripEveryAvroType() {
        Schema rich = new Schema.Parser().parse("""
                {"type":"record","name":"Rich","fields":[
                 {"name":"tags","type":{"type":"array","items":"string"}},
                 {"name":"counts","type":{"type":"map","values":"long"}},
                 {"name":"blob","type":"bytes"},
                 {"name":"hash","type":{"type":"fixed","name":"Hash","size":4}},
                 {"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","BLUE"]}},
                 {"name":"flag","type":"boolean"},{"name":"f","type":"float"},{"name":"i","type":"int"},
                 {"name":"inner","type":{"type":"record","name":"Inner","fields":[{"name":"x","type":["null","int"]}]}}]}""");
        GenericRecord inner = new GenericData.Record(rich.getField("inner").schema());
        inner.put("x", 3);
        GenericRecord row = new GenericData.Record(rich);
        row.put("tags", List.of(new Utf8("a"), new Utf8("bc")));
        row.put("counts", Map.of(new Utf8("k"), 5L));
        row.put("blob", ByteBuffer.wrap(new byte[] {1, 2, 3}));
        row.put("hash", new GenericData.Fixed(rich.getField("hash").schema(), new byte[] {9, 8, 7, 6}));
        row.put("color", new GenericData.EnumSymbol(rich.getField("color").schema(), "BLUE"));
        row.put("flag", true);
        row.put("f", 1.25f);
        row.put("i", -7);
        row.put("inner", inner);

        assertEquals(row, codec.deserialize(codec.serialize(row)));
    }

    @Test
    void shouldRejectHugeDeclaredArrayCountAsUndecodable() {
        Schema list = SchemaBuilder.record("L").fields().name("xs").type().array().items().longType().noDefault().endRecord();
        int id = codec.schemaId(list);
        byte[] avro = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 0};

        BadWireFormatException e = assertThrows(BadWireFormatException.class,
                () -> codec.validate(WireFormat.encode(id, avro)));
        assertEquals("undecodable", e.reason());
    }

    @Test
    void shouldRejectBadUnionIndexAsUndecodable() {
        byte[] avro = {2, 9, 0, 0, 0, 0, 0, 0, 0, 0};
        codec.schemaId(ROW);

        BadWireFormatException e = assertThrows(BadWireFormatException.class,
                () -> codec.validate(WireFormat.encode(1, avro)));
        assertEquals("undecodable", e.reason());
    }

    @Test
    void shouldPassOnBadHeaderReason() {
        BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> codec.validate(new byte[] {1, 0, 0, 0, 1}));
        assertEquals("bad-magic", e.reason());
    }

    @Test
    void shouldReportUnknownSchemaIdAsUnknownSchema() {
        assertThrows(UnknownSchemaException.class, () -> codec.deserialize(WireFormat.encode(77, new byte[] {2})));
    }

    private static GenericRecord row(long id, String name, double price) {
        GenericRecord row = new GenericData.Record(ROW);
        row.put("id", id);
        row.put("name", name);
        row.put("price", price);
        return row;
    }

    /** The in-memory registry, counting calls. */
    private static final class CountingRegistry extends ForwardingRegistry {
        final AtomicInteger registrations = new AtomicInteger();
        final AtomicInteger lookups = new AtomicInteger();

        CountingRegistry() {
            super(new InMemorySchemaRegistry());
        }

        @Override
        public int register(String subject, Schema schema) {
            registrations.incrementAndGet();
            return super.register(subject, schema);
        }

        @Override
        public Schema schemaById(int id) {
            lookups.incrementAndGet();
            return super.schemaById(id);
        }
    }
}
