package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackDirResolverTest {

    @TempDir
    Path repo;

    @Test
    void shouldPreferTheOptionThenTheSystemProperty() {
        Path fromOption = StackDirResolver.resolve(Optional.of(Path.of("/opt/stack")),
                Optional.of("/prop/stack"), repo, Optional.empty());
        Path fromProperty = StackDirResolver.resolve(Optional.empty(), Optional.of("/prop/stack"),
                repo, Optional.empty());
        assertEquals(Path.of("/opt/stack"), fromOption);
        assertEquals(Path.of("/prop/stack"), fromProperty);
    }

    @Test
    void shouldUseLocalStackInTheWorkingDir() throws Exception {
        Path stack = Files.createDirectories(repo.resolve("local-stack"));
        assertEquals(stack, StackDirResolver.resolve(Optional.empty(), Optional.empty(), repo, Optional.empty()));
    }

    @Test
    void shouldFindLocalStackAboveTheRunningJar() throws Exception {
        Path stack = Files.createDirectories(repo.resolve("local-stack"));
        Path jar = Files.createDirectories(repo.resolve("app/target")).resolve("mvsink.jar");
        Path elsewhere = Files.createDirectories(repo.resolve("elsewhere"));
        assertEquals(stack, StackDirResolver.resolve(Optional.empty(), Optional.empty(), elsewhere, Optional.of(jar)));
    }

    @Test
    void shouldTellHowToBuildTheStackWhenNoneIsFound() {
        LocalStackException e = assertThrows(LocalStackException.class, () -> StackDirResolver.resolve(
                Optional.empty(), Optional.empty(), repo, Optional.of(repo.resolve("app/target/mvsink.jar"))));
        assertTrue(e.getMessage().contains("mvn -B -q -DskipTests package"), e.getMessage());
    }

    @Test
    void shouldTellHowToBuildTheStackWhenItIsNotBuilt() throws Exception {
        StackLayout layout = new StackLayout(Files.createDirectories(repo.resolve("local-stack")));
        LocalStackException e = assertThrows(LocalStackException.class, layout::apicurioJar);
        assertTrue(e.getMessage().contains("is not built") && e.getMessage().contains("mvn -B -q -DskipTests package"),
                e.getMessage());
    }
}
