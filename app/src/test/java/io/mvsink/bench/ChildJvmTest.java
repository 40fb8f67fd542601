package io.mvsink.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void shouldStartEveryChildWithTheArchiveBesideTheJarWhenThereIsOne(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("mvsink.jar"));
        assertEquals(List.of(), ChildJvm.archiveOptions(jar.toString(), true), "no archive beside the jar");

        Path archive = Files.createFile(dir.resolve("mvsink.jsa"));
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive), ChildJvm.archiveOptions(jar.toString(), true));
        assertEquals(List.of(), ChildJvm.archiveOptions(jar.toString(), false), "-Dmvsink.bench.cds=false");
        assertEquals(List.of(), ChildJvm.archiveOptions(dir.resolve("classes").toString(), true), "not run from a jar");
        assertEquals(List.of(), ChildJvm.archiveOptions(jar + java.io.File.pathSeparator + dir.resolve("other.jar"), true),
            "a class path of several entries, which the archive was not made for");
    }
}
