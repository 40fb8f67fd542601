package io.mvsink.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GridTest {
    private final Grid grid = new Grid(1000);

    @Test
    void shouldFloorPositiveTimesToTheGridPointAtOrBelow() {
        assertEquals(0, grid.floor(0));
        assertEquals(0, grid.floor(999));
        assertEquals(1000, grid.floor(1000));
        assertEquals(1000, grid.floor(1999));
    }

    @Test
    void shouldFloorNegativeTimesDownwardsNotTowardsZero() {
        assertEquals(-1000, grid.floor(-1));
        assertEquals(-1000, grid.floor(-1000));
        assertEquals(-2000, grid.floor(-1001));
    }

    @Test
    void shouldCountIntervalsBetweenGridPoints() {
        assertEquals(0, grid.intervals(3000, 3000));
        assertEquals(1, grid.intervals(0, 1000));
        assertEquals(3, grid.intervals(-1000, 2000));
    }

    @Test
    void shouldRefuseANonPositiveWidth() {
        assertThrows(IllegalArgumentException.class, () -> new Grid(0));
        assertThrows(IllegalArgumentException.class, () -> new Grid(-5));
    }

    @Test
    void shouldFloorOnAGridOfWidthOne() {
        assertEquals(-7, new Grid(1).floor(-7));
    }
}
