package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.local.LocalStackOptions.Component;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's path: the launcher starts the broker as its own JVM, and close() ends it. */
class KafkaBrokerProcessIT {

    @Test
    void shouldServeProduceAndConsumeAndLeaveNoProcessBehind(@TempDir Path workDir) throws Exception {
        LocalStackOptions options = LocalStackOptions.defaults()
                .withComponents(Set.of(Component.KAFKA))
                .withWorkDir(workDir)
                .withVerbose(true);
        String bootstrap;
        try (LocalStack stack = LocalStackLauncher.start(options)) {
            bootstrap = stack.bootstrapServers();
            assertTrue(brokerProcesses(workDir).size() == 1, "one broker JVM runs from " + workDir);
            KafkaRoundTrip.createTopic(bootstrap, "process-smoke");
            KafkaRoundTrip.produceInTransaction(bootstrap, "process-smoke", "tx-process-smoke", "k", "v");
            assertEquals(List.of("k=v"), KafkaRoundTrip.readCommitted(bootstrap, "process-smoke", 1));
        }
        assertEquals(List.of(), brokerProcesses(workDir), "no broker JVM is left after close");
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        assertFalse(Probes.tcpOpen("127.0.0.1", port), "nothing listens on " + bootstrap + " after close");
    }

    /** Processes of this JVM's tree whose command line names the work dir, i.e. the broker. */
    private static List<ProcessHandle> brokerProcesses(Path workDir) {
        return ProcessHandle.current().descendants()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(workDir.toString()))
                .toList();
    }
}
