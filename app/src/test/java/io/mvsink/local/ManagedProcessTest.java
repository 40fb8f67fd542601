package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Uses /bin/sh children, so it runs where the stack runs (Linux, macOS). */
class ManagedProcessTest {

    @TempDir
    Path dir;

    private ManagedProcess process(String script) {
        return new ManagedProcess("test-child", List.of("/bin/sh", "-c", script), dir,
                dir.resolve("logs/child.log"), Duration.ofSeconds(2), Time.SYSTEM);
    }

    @Test
    void shouldFailWithTheLogTailWhenTheProcessExitsBeforeReady() {
        ManagedProcess child = process("for i in $(seq 1 50); do echo line $i; done; exit 3");
        LocalStackException e = assertThrows(LocalStackException.class,
                () -> child.start(() -> false, Duration.ofSeconds(20)));
        assertTrue(e.getMessage().contains("test-child exited with code 3"), e.getMessage());
        assertTrue(e.getMessage().contains("line 50") && e.getMessage().contains("line 11"), e.getMessage());
        assertFalse(e.getMessage().contains("line 10\n"), "only the last 40 lines: " + e.getMessage());
        assertEquals(ProcessState.FAILED, child.state());
    }

    @Test
    void shouldFailAndKillTheProcessWhenNeverReady() {
        ManagedProcess child = process("echo starting; exec sleep 60");
        LocalStackException e = assertThrows(LocalStackException.class,
                () -> child.start(() -> false, Duration.ofMillis(500)));
        assertTrue(e.getMessage().contains("not ready within") && e.getMessage().contains("starting"), e.getMessage());
        assertFalse(child.handle().orElseThrow().isAlive());
    }

    @Test
    void shouldStopTheProcessAndItsDescendantsOnce() throws Exception {
        Path marker = dir.resolve("ready");
        ManagedProcess child = process("sleep 60 & sleep 60 & touch " + marker + "; wait");
        child.start(() -> Files.exists(marker), Duration.ofSeconds(20));
        ProcessHandle root = child.handle().orElseThrow();
        List<ProcessHandle> tree = root.descendants().toList();
        assertEquals(2, tree.size(), "two sleeping grandchildren");
        child.stop();
        child.stop();
        assertFalse(root.isAlive());
        assertTrue(tree.stream().noneMatch(ProcessHandle::isAlive), "descendants are gone too");
        assertEquals(ProcessState.STOPPED, child.state());
    }

    @Test
    void shouldRefuseToLaunchAfterStop() {
        ManagedProcess child = process("exec sleep 60");
        child.stop();
        assertThrows(LocalStackException.class, () -> child.start(() -> true, Duration.ofSeconds(5)));
    }

    @Test
    void shouldRunAToolToCompletionOrReportItsFailure() {
        process("echo formatted").runToCompletion(Duration.ofSeconds(20));
        LocalStackException e = assertThrows(LocalStackException.class,
                () -> process("echo bad config; exit 1").runToCompletion(Duration.ofSeconds(20)));
        assertTrue(e.getMessage().contains("exited with code 1") && e.getMessage().contains("bad config"),
                e.getMessage());
    }
}
