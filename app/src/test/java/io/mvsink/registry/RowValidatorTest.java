package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * The input path's check of a row ({@link AvroRowCodec#validate}, a walk that builds nothing) must
 * accept exactly what reading the whole row ({@link AvroRowCodec#deserialize}) accepts.
 */
class RowValidatorTest {
    private static final Schema NODE = new Schema.Parser().parse("""
        {"type": "record", "name": "Node", "namespace": "t", "fields": [
          {"name": "id", "type": "long"},
          {"name": "small", "type": "int"},
          {"name": "name", "type": "string"},
          {"name": "note", "type": ["null", "string"]},
          {"name": "blob", "type": "bytes"},
          {"name": "ok", "type": "boolean"},
          {"name": "f", "type": "float"},
          {"name": "d", "type": "double"},
          {"name": "code", "type": {"type": "fixed", "name": "Code", "size": 3}},
          {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}},
          {"name": "tags", "type": {"type": "array", "items": "string"}},
          {"name": "attrs", "type": {"type": "map", "values": ["null", "long"]}},
          {"name": "children", "type": {"type": "array", "items": "Node"}}
        ]}""");

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroRowCodec codec = new AvroRowCodec(registry, "nodes-value");

    @Test
    void shouldAcceptEveryWellFormedRowAndReturnItsSchemaId() {
        Random random = new Random(7);
        for (int i = 0; i < 300; i++) {
            byte[] framed = codec.serialize(node(random, 2));

            assertEquals(WireFormat.schemaId(framed), codec.validate(framed));
        }
    }

    @Test
    void shouldRefuseWhatTheFullReadRefusesAndNothingElse() {
        Random random = new Random(11);
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            byte[] framed = codec.serialize(node(random, 2));
            for (byte[] bad : damaged(framed, random)) {
                boolean readRefuses = refuses(() -> codec.deserialize(bad));
                boolean walkRefuses = refuses(() -> codec.validate(bad));
                assertEquals(readRefuses, walkRefuses, () -> "read and walk disagree on " + Arrays.toString(bad));
                refused += walkRefuses ? 1 : 0;
            }
        }
        assertTrue(refused > 1000, "the damaged rows exercise refusals: " + refused);
    }

    @Test
    void shouldRefuseAnUnknownUnionBranchAnEnumSymbolAndATruncatedString() {
        Schema schema = new Schema.Parser().parse("""
            {"type": "record", "name": "R", "fields": [
              {"name": "u", "type": ["null", "long"]},
              {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
              {"name": "s", "type": "string"}]}""");
        int id = registry.register("nodes-value", schema);
        byte[] header = ByteBuffer.allocate(WireFormat.HEADER_SIZE).put(WireFormat.MAGIC).putInt(id).array();

        BadWireFormatException branch = assertThrows(BadWireFormatException.class,
            () -> codec.validate(framed(header, 4, 0, 0)));
        BadWireFormatException symbol = assertThrows(BadWireFormatException.class,
            () -> codec.validate(framed(header, 0, 4, 0)));
        BadWireFormatException truncated = assertThrows(BadWireFormatException.class,
            () -> codec.validate(framed(header, 0, 2, 10, 'a', 'b')));
        BadWireFormatException trailing = assertThrows(BadWireFormatException.class,
            () -> codec.validate(framed(header, 0, 2, 2, 'a', 9)));

        for (BadWireFormatException e : List.of(branch, symbol, truncated, trailing)) {
            assertEquals(BadWireFormatException.UNDECODABLE, e.reason());
        }
        assertEquals(id, codec.validate(framed(header, 2, 8, 2, 2, 'a')));
    }

    private static byte[] framed(byte[] header, int... payload) {
        byte[] framed = Arrays.copyOf(header, header.length + payload.length);
        for (int i = 0; i < payload.length; i++) {
            framed[header.length + i] = (byte) payload[i];
        }
        return framed;
    }

    /** Truncations, a trailing byte, and single bytes overwritten at random. */
    private static List<byte[]> damaged(byte[] framed, Random random) {
        List<byte[]> out = new ArrayList<>();
        out.add(Arrays.copyOf(framed, framed.length + 1));
        for (int i = 0; i < 3; i++) {
            out.add(Arrays.copyOf(framed, WireFormat.HEADER_SIZE + random.nextInt(framed.length - WireFormat.HEADER_SIZE)));
            byte[] flipped = framed.clone();
            flipped[WireFormat.HEADER_SIZE + random.nextInt(framed.length - WireFormat.HEADER_SIZE)] = (byte) random.nextInt(256);
            out.add(flipped);
        }
        return out;
    }

    private static boolean refuses(Runnable read) {
        try {
            read.run();
            return false;
        } catch (BadWireFormatException e) {
            return true;
        }
    }

    private static GenericRecord node(Random random, int depth) {
        GenericRecord node = new GenericData.Record(NODE);
        node.put("id", random.nextLong());
        node.put("small", random.nextInt());
        node.put("name", text(random));
        node.put("note", random.nextBoolean() ? null : text(random));
        byte[] blob = new byte[random.nextInt(5)];
        random.nextBytes(blob);
        node.put("blob", ByteBuffer.wrap(blob));
        node.put("ok", random.nextBoolean());
        node.put("f", random.nextFloat());
        node.put("d", random.nextDouble());
        byte[] code = new byte[3];
        random.nextBytes(code);
        node.put("code", new GenericData.Fixed(NODE.getField("code").schema(), code));
        List<String> symbols = NODE.getField("color").schema().getEnumSymbols();
        node.put("color", new GenericData.EnumSymbol(NODE.getField("color").schema(), symbols.get(random.nextInt(3))));
        List<String> tags = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            tags.add(text(random));
        }
        node.put("tags", tags);
        Map<String, Long> attrs = new HashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            attrs.put(text(random), random.nextBoolean() ? null : random.nextLong());
        }
        node.put("attrs", attrs);
        List<GenericRecord> children = new ArrayList<>();
        for (int i = depth > 0 ? random.nextInt(3) : 0; i > 0; i--) {
            children.add(node(random, depth - 1));
        }
        node.put("children", children);
        return node;
    }

    private static String text(Random random) {
        String[] pieces = {"a", "naïve", "\"q\"", "\\", "日本", "🚀", "x y"};
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(4); i > 0; i--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }
}
