package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutagesTest {
    @Test
    void shouldTakeOutOfEachStallTheTimeNoChildRan() {
        Outages outages = Outages.of(List.of(new Outages.Window(0, 10_000), new Outages.Window(14_000, 30_000)));

        assertEquals(4_000, outages.outageMs(5_000, 20_000));
        assertEquals(11_000, outages.longestStallOutside(List.of(0L, 1_000L, 16_000L, 20_000L)));
    }
}
