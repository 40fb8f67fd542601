package io.mvsink.cli;

import io.mvsink.topology.TopologyDocs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "topology", description = "Writes the topology as Kafka Streams describes it (topology.txt) and as "
    + "a Mermaid diagram (topology.mmd) into a directory.")
final class TopologyCommand implements Callable<Integer> {
    @Option(names = "--dir", defaultValue = "topology-docs", description = "Output directory (default ${DEFAULT-VALUE}).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("topology.txt"), TopologyDocs.description());
        Files.writeString(dir.resolve("topology.mmd"), TopologyDocs.mermaid());
        System.err.println("topology: wrote " + dir.resolve("topology.txt") + " and " + dir.resolve("topology.mmd"));
        return 0;
    }
}
