package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsyncStagesTest {
    private final String before = System.getProperty(Main.COMMON_POOL_PARALLELISM);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Main.COMMON_POOL_PARALLELISM);
        } else {
            System.setProperty(Main.COMMON_POOL_PARALLELISM, before);
        }
    }

    @Test
    void shouldGiveTheCommonPoolTwoThreadsOnSmallMachinesUnlessSet() {
        System.clearProperty(Main.COMMON_POOL_PARALLELISM);
        Main.asyncStagesOnAPool();
        assertEquals(Runtime.getRuntime().availableProcessors() <= 2 ? "2" : null,
            System.getProperty(Main.COMMON_POOL_PARALLELISM));

        System.setProperty(Main.COMMON_POOL_PARALLELISM, "7");
        Main.asyncStagesOnAPool();
        assertEquals("7", System.getProperty(Main.COMMON_POOL_PARALLELISM), "an explicit setting wins");
    }
}
