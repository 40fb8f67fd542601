package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessStateTest {

    @Test
    void shouldOnlyMoveForward() {
        assertTrue(ProcessState.NEW.canMoveTo(ProcessState.STARTING));
        assertTrue(ProcessState.STARTING.canMoveTo(ProcessState.READY));
        assertTrue(ProcessState.STARTING.canMoveTo(ProcessState.STOPPED));
        assertTrue(ProcessState.READY.canMoveTo(ProcessState.STOPPED));
        assertFalse(ProcessState.READY.canMoveTo(ProcessState.STARTING));
        assertFalse(ProcessState.NEW.canMoveTo(ProcessState.READY));
    }

    @Test
    void shouldNeverLeaveATerminalState() {
        for (ProcessState next : ProcessState.values()) {
            assertFalse(ProcessState.STOPPED.canMoveTo(next));
            assertFalse(ProcessState.FAILED.canMoveTo(next));
        }
    }
}
