package io.mvsink.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a script of {@code local-stack/interop} with the {@code node} on the PATH (the one the build's
 * {@code npm ci} and Azurite use), its packages from {@code local-stack/node_modules} as pinned by
 * {@code package-lock.json}: nothing is fetched at run time.
 */
final class NodeScript {
    private NodeScript() {
    }

    /** The interop scripts: under {@code -Dmvsink.stack.dir} (set by failsafe), else {@code ../local-stack}. */
    static Path dir() {
        String property = System.getProperty("mvsink.stack.dir");
        Path stack = property != null && !property.isBlank() ? Path.of(property) : Path.of("..", "local-stack");
        Path dir = stack.resolve("interop").toAbsolutePath().normalize();
        if (!Files.isDirectory(stack.resolve("node_modules").resolve("kafkajs"))) {
            throw new IllegalStateException("the interop clients are not installed in " + stack.resolve("node_modules")
                + ": run `mvn -B -q -DskipTests package` (it runs npm ci in local-stack)");
        }
        return dir;
    }

    /**
     * Runs {@code node <script> args} in {@link #dir()} and returns what it printed on stdout;
     * fails with its stderr if it does not exit 0 within {@code timeout} (it is then killed).
     */
    static String run(String script, List<String> args, Duration timeout) {
        Path dir = dir();
        List<String> command = new ArrayList<>(List.of("node", dir.resolve(script).toString()));
        command.addAll(args);
        try {
            Path out = Files.createTempFile("mvsink-node-" + script, ".out");
            Path err = Files.createTempFile("mvsink-node-" + script, ".err");
            out.toFile().deleteOnExit();
            err.toFile().deleteOnExit();
            Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            if (!exited || process.exitValue() != 0) {
                throw new AssertionError("node " + script + (exited ? " exited with " + process.exitValue()
                    : " did not finish within " + timeout) + "; command " + command + "; stderr:\n" + stderr);
            }
            if (!stderr.isBlank()) {
                System.err.print("node " + script + ": " + stderr);
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }
}
