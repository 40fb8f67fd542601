package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TopologyDocsTest {
    private static final Path DOCS = Path.of("..", "topology-docs");
    private static final String REGENERATE = " is stale: run `java -jar app/target/mvsink.jar topology`";

    @Test
    void shouldMatchTheCheckedInDescription() throws Exception {
        assertEquals(Files.readString(DOCS.resolve("topology.txt")), TopologyDocs.description(), "topology.txt" + REGENERATE);
    }

    @Test
    void shouldMatchTheCheckedInDiagram() throws Exception {
        assertEquals(Files.readString(DOCS.resolve("topology.mmd")), TopologyDocs.mermaid(), "topology.mmd" + REGENERATE);
    }

    @Test
    void shouldDrawEveryTopicAndStore() {
        String diagram = TopologyDocs.mermaid();
        for (String name : new String[] {"corrections", "mvsink-reports", "mvsink-consensus", "mvsink-dead-letter",
            StoreNames.BUFFER, StoreNames.PROGRESS, StoreNames.SCHEMA_DECISIONS, StoreNames.APPENDER, StoreNames.CONSENSUS}) {
            assertTrue(diagram.contains("\"" + name + "\""), name);
        }
    }
}
