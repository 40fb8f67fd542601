package io.mvsink.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class WireFormatTest {

    @Test
    void shouldRoundTripSchemaIdAndPayload() {
        byte[] avro = {1, 2, 3};
        byte[] framed = WireFormat.encode(0x01020304, avro);

        assertArrayEquals(new byte[] {0, 1, 2, 3, 4, 1, 2, 3}, framed);
        WireFormat.Framed decoded = WireFormat.decode(framed);
        assertEquals(0x01020304, decoded.schemaId());
        assertArrayEquals(avro, decoded.avro());
        assertEquals(0x01020304, WireFormat.schemaId(framed));
    }

    @Test
    void shouldKeepIdsAboveSignedRangeBigEndian() {
        byte[] framed = WireFormat.encode(-2, new byte[0]);

        assertArrayEquals(new byte[] {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe}, framed);
        assertEquals(-2, WireFormat.schemaId(framed));
    }

    @Test
    void shouldAcceptEmptyPayload() {
        byte[] framed = WireFormat.encode(7, new byte[0]);

        assertEquals(0, WireFormat.decode(framed).avro().length);
        assertEquals(0, WireFormat.payload(framed).remaining());
    }

    @Test
    void shouldExposePayloadAsReadOnlyViewWithoutHeader() {
        ByteBuffer payload = WireFormat.payload(WireFormat.encode(9, new byte[] {42, 43}));

        assertEquals(2, payload.remaining());
        assertEquals(42, payload.get(0));
        assertEquals(43, payload.get(1));
        assertEquals(true, payload.isReadOnly());
    }

    @Test
    void shouldRejectNullAsTooShort() {
        BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> WireFormat.decode(null));

        assertEquals(BadWireFormatException.TOO_SHORT, e.reason());
    }

    @Test
    void shouldRejectFewerThanFiveBytesAsTooShort() {
        for (int n = 0; n < WireFormat.HEADER_SIZE; n++) {
            byte[] bytes = new byte[n];
            BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> WireFormat.schemaId(bytes));
            assertEquals("too-short", e.reason());
            assertEquals(true, e.getMessage().contains(n + " bytes"), e.getMessage());
        }
    }

    @Test
    void shouldRejectWrongMagicByte() {
        byte[] framed = {1, 0, 0, 0, 1, 2};

        BadWireFormatException e = assertThrows(BadWireFormatException.class, () -> WireFormat.decode(framed));
        assertEquals("bad-magic", e.reason());
        assertEquals(true, e.getMessage().contains("0x01"), e.getMessage());
        assertThrows(BadWireFormatException.class, () -> WireFormat.payload(framed));
    }

    @Test
    void shouldBeARegistryException() {
        RegistryException e = assertThrows(RegistryException.class, () -> WireFormat.schemaId(new byte[1]));
        assertFalse(e.getMessage().isBlank());
    }

    @Test
    void shouldRefuseToEncodeNullPayload() {
        assertThrows(IllegalArgumentException.class, () -> WireFormat.encode(1, null));
    }
}
