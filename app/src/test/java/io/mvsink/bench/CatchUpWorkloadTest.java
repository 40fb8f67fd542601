package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.produce.WideWorkload;
import io.mvsink.produce.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

class CatchUpWorkloadTest {

    @Test
    void shouldParseNarrowWideAndBothInOrder() {
        assertEquals(List.of(CatchUpWorkload.NARROW), CatchUpWorkload.parse("narrow"));
        assertEquals(List.of(CatchUpWorkload.WIDE), CatchUpWorkload.parse("wide"));
        assertEquals(List.of(CatchUpWorkload.NARROW, CatchUpWorkload.WIDE), CatchUpWorkload.parse("both"));
    }

    @Test
    void shouldRefuseAnUnknownWorkloadNamingTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CatchUpWorkload.parse("Wide"));
        assertEquals("--workload: unknown workload 'Wide' (narrow, wide, both)", e.getMessage());
    }

    @Test
    void shouldMakeEachWorkloadsRowsSeededAlike() {
        assertEquals(Workload.ROW_SCHEMA, CatchUpWorkload.NARROW.source().rowSchema());
        assertEquals(WideWorkload.ROW_SCHEMA, CatchUpWorkload.WIDE.source().rowSchema());
        assertEquals(CatchUpWorkload.WIDE.source().next(), CatchUpWorkload.WIDE.source().next());
        assertTrue(CatchUpWorkload.WIDE.describe().contains("0.5% late"));
    }
}
