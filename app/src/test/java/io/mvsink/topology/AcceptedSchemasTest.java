package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class AcceptedSchemasTest {
    /** Version 1 as stored: limit 1 MiB (0x00100000). Must still read. */
    private static final byte[] VERSION_1_FIXTURE = {1, 0, 0x10, 0, 0};

    private final AcceptedSchemas accepted = new AcceptedSchemas(TestStores.inMemory("decisions", Serdes.Integer()));

    @Test
    void shouldRoundTripTheRowLimitOfAnAcceptedId() {
        accepted.accept(7, 4096);

        assertEquals(OptionalInt.of(4096), accepted.rowLimit(7));
        assertEquals(OptionalInt.empty(), accepted.rowLimit(8));
        assertEquals(Integer.MAX_VALUE, AcceptedSchemas.decode(1, AcceptedSchemas.encode(Integer.MAX_VALUE)));
    }

    @Test
    void shouldReadTheVersion1Fixture() {
        assertArrayEquals(VERSION_1_FIXTURE, AcceptedSchemas.encode(1 << 20));
        assertEquals(1 << 20, AcceptedSchemas.decode(3, VERSION_1_FIXTURE));
    }

    @Test
    void shouldFailOnAnUnknownFormatRatherThanGuess() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> AcceptedSchemas.decode(3, new byte[] {2, 0, 0, 0, 1}));
        assertTrue(e.getMessage().contains("schema id 3"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> AcceptedSchemas.decode(3, new byte[0]));
    }
}
