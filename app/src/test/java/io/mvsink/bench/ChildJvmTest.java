package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChildJvmTest {
    @AfterEach
    void clear() {
        System.clearProperty("mvsink.bench.child.jvm.options");
    }

    @Test
    void shouldPassTheConfiguredOptionsToEveryChildWithItsLabel() {
        assertEquals(List.of(), ChildJvm.extraOptions("reference"));
        System.setProperty("mvsink.bench.child.jvm.options", " -XX:StartFlightRecording=filename=/tmp/{label}.jfr  -Xss1m ");
        assertEquals(List.of("-XX:StartFlightRecording=filename=/tmp/catchup-1.jfr", "-Xss1m"),
            ChildJvm.extraOptions("catchup-1"));
    }
}
