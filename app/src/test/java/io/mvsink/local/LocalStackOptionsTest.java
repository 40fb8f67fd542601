package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.local.LocalStackOptions.Component;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocalStackOptionsTest {

    @Test
    void shouldStartEverythingQuietlyInATemporaryDirByDefault() {
        LocalStackOptions defaults = LocalStackOptions.defaults();
        assertEquals(EnumSet.allOf(Component.class), defaults.components());
        assertTrue(defaults.stackDir().isEmpty());
        assertTrue(defaults.workDir().isEmpty());
        assertFalse(defaults.verbose());
        assertEquals(LocalStackOptions.DEFAULT_START_TIMEOUT, defaults.startTimeout());
    }

    @Test
    void shouldChangeOnlyWhatIsAskedFor() {
        LocalStackOptions base = LocalStackOptions.defaults();
        LocalStackOptions changed = base.withStackDir(Path.of("/s")).withWorkDir(Path.of("/w"))
                .withComponents(Set.of(Component.KAFKA)).withVerbose(true)
                .withStartTimeout(Duration.ofSeconds(5));
        assertEquals(Path.of("/s"), changed.stackDir().orElseThrow());
        assertEquals(Path.of("/w"), changed.workDir().orElseThrow());
        assertEquals(Set.of(Component.KAFKA), changed.components());
        assertTrue(changed.verbose());
        assertEquals(Duration.ofSeconds(5), changed.startTimeout());
        assertTrue(base.workDir().isEmpty(), "options are immutable");
    }

    @Test
    void shouldRefuseNoComponentsAndNonPositiveTimeouts() {
        LocalStackOptions defaults = LocalStackOptions.defaults();
        assertThrows(IllegalArgumentException.class, () -> defaults.withComponents(Set.of()));
        assertThrows(IllegalArgumentException.class, () -> defaults.withStartTimeout(Duration.ZERO));
    }
}
