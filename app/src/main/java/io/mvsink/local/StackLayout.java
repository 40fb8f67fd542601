package io.mvsink.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Where the built local stack keeps each service (see {@code local-stack/pom.xml}). */
final class StackLayout {

    static final String BUILD_HINT =
            "run `mvn -B -q -DskipTests package` in the repository root first";

    private final Path dir;

    StackLayout(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    Path dir() {
        return dir;
    }

    /** Fails with a hint to build the stack unless every asked-for component is built. */
    void requireBuilt(Set<LocalStackOptions.Component> components) {
        for (LocalStackOptions.Component component : components) {
            switch (component) {
                case KAFKA:
                    brokerClasspath();
                    break;
                case REGISTRY:
                    apicurioJar();
                    break;
                default:
                    azuriteBlob();
            }
        }
    }

    Path brokerClasspathFile() {
        return dir.resolve("target").resolve("broker.classpath");
    }

    /** The broker's classpath as written by the build. */
    String brokerClasspath() {
        Path file = requireBuilt(brokerClasspathFile(), "the Kafka broker's classpath");
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new LocalStackException("could not read the Kafka broker's classpath " + file, e);
        }
    }

    /** The one {@code apicurio-registry-app-*-runner.jar} unpacked by the build. */
    Path apicurioJar() {
        Path apicurioDir = requireBuilt(dir.resolve("target").resolve("apicurio"), "Apicurio Registry");
        try (DirectoryStream<Path> jars =
                     Files.newDirectoryStream(apicurioDir, "apicurio-registry-app-*-runner.jar")) {
            for (Path jar : jars) {
                return jar;
            }
        } catch (IOException e) {
            throw new LocalStackException("could not list " + apicurioDir, e);
        }
        throw new LocalStackException("the local stack in " + dir + " is not built: no Apicurio"
                + " runner jar in " + apicurioDir + "; " + BUILD_HINT);
    }

    Path azuriteBlob() {
        return requireBuilt(dir.resolve("node_modules").resolve(".bin").resolve("azurite-blob"),
                "Azurite");
    }

    private Path requireBuilt(Path artifact, String what) {
        if (!Files.exists(artifact)) {
            throw new LocalStackException("the local stack in " + dir + " is not built: " + what
                    + " is missing (" + artifact + "); " + BUILD_HINT);
        }
        return artifact;
    }
}
