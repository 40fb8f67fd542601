package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.mvsink.config.MvsinkConfig;
import io.mvsink.config.TestConfigs;
import io.mvsink.protocol.CoalescerSettings;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.topology.SinkSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The settings records are read from the options by name, once, in Wiring. */
class WiringSettingsTest {

    private static MvsinkConfig config(String... overrides) {
        return TestConfigs.config(overrides);
    }

    @Test
    void shouldDefaultTheCoalescerAsTheOptionsDo() {
        assertEquals(CoalescerSettings.DEFAULTS, Wiring.coalescerSettings(config()));
    }

    @Test
    void shouldReadEachCoalescerOptionIntoItsOwnField() {
        CoalescerSettings settings = Wiring.coalescerSettings(config(MvsinkConfig.COALESCING_MODE, "best-effort",
            MvsinkConfig.BARRIER_TIMEOUT_MS, "3000", MvsinkConfig.BEST_EFFORT_LINGER_MS, "40",
            MvsinkConfig.BUILDER_MAX_QUEUED_BYTES, "5000", MvsinkConfig.BUILDER_THREADS, "3"));

        assertEquals(new CoalescerSettings(CoalescingMode.BEST_EFFORT, Duration.ofSeconds(3), Duration.ofMillis(40),
            5000, 3), settings);
    }

    @Test
    void shouldDefaultTheProcessorsAsTheOptionsDo() {
        MvsinkConfig config = config();

        assertEquals(SinkSettings.of(config.shard(), config.rowSubject()).withPartitions(8),
            Wiring.sinkSettings(config, 8));
    }

    @Test
    void shouldReadEachProcessorOptionIntoItsOwnField() {
        SinkSettings settings = Wiring.sinkSettings(config(MvsinkConfig.BATCH_INTERVAL_MS, "5000",
            MvsinkConfig.PUNCTUATE_INTERVAL_MS, "50", MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS, "70000",
            MvsinkConfig.MAX_ROW_BYTES, "2048"), 3);

        assertEquals(5000, settings.intervalMs());
        assertEquals(3, settings.partitionCount());
        assertEquals(Duration.ofMillis(50), settings.punctuate());
        assertEquals(Duration.ofSeconds(70), settings.recontribute());
        assertEquals(2048, settings.maxRowBytes());
    }

    @Test
    void shouldRefuseSettingsNoOptionAllows() {
        assertThrows(IllegalArgumentException.class, () -> CoalescerSettings.DEFAULTS.withThreads(0));
        assertThrows(IllegalArgumentException.class, () -> CoalescerSettings.DEFAULTS.withBarrierTimeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> CoalescerSettings.DEFAULTS.withLinger(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> SinkSettings.of("s", "s-value").withPartitions(0));
        assertThrows(IllegalArgumentException.class, () -> SinkSettings.of("s", "s-value").withIntervalMs(0));
    }
}
