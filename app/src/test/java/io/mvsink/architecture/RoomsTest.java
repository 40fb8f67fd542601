package io.mvsink.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms of the production code and which may import which (issue 13: the build enforcing the
 * architecture, as Kafka's import-control does): the seal protocol never reaches the Kafka Streams
 * adapters, the production path never reaches the command line, the local stack or the benches,
 * and the Azure SDK, picocli and Kafka Streams stay in their rooms. A new import across rooms fails
 * here until this map says it is meant; docs/ARCHITECTURE.md ("Rooms") says why each room exists.
 */
class RoomsTest {
    private static final Path MAIN = Path.of("src", "main", "java", "io", "mvsink");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.mvsink\\.([a-z]+)?\\.?[A-Za-z]", Pattern.MULTILINE);
    /** The root package (MvsinkApp, Wiring, DepartedTransactions): the app as a library. */
    private static final String APP = "app";

    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
        Map.entry("blob", Set.of()),
        Map.entry("codec", Set.of()),
        Map.entry("config", Set.of()),
        Map.entry("console", Set.of()),
        Map.entry("local", Set.of()),
        Map.entry("metrics", Set.of()),
        Map.entry("registry", Set.of()),
        Map.entry("consensus", Set.of("codec")),
        Map.entry("batch", Set.of("blob", "metrics", "registry")),
        Map.entry("protocol", Set.of("batch", "blob", "metrics", "registry")),
        Map.entry("produce", Set.of("registry")),
        Map.entry("read", Set.of("batch", "blob", "consensus", "registry")),
        Map.entry("compact", Set.of("batch", "blob", "consensus", "read", "registry")),
        Map.entry("gc", Set.of("blob", "config", "consensus", "metrics")),
        Map.entry("ops", Set.of("metrics")),
        Map.entry("topology", Set.of("batch", "codec", "compact", "config", "consensus", "metrics", "protocol",
            "registry")),
        Map.entry(APP, Set.of("batch", "blob", "compact", "config", "consensus", "gc", "metrics", "protocol",
            "registry", "topology")),
        Map.entry("bench", Set.of(APP, "batch", "blob", "codec", "config", "consensus", "console", "local",
            "metrics", "produce", "read", "registry")),
        Map.entry("cli", Set.of(APP, "batch", "bench", "blob", "config", "consensus", "console", "gc", "local",
            "metrics", "ops", "produce", "read", "topology")));

    /** Third-party packages that only some rooms may import. */
    private static final Map<String, Set<String>> LIBRARIES = Map.of(
        "com.azure", Set.of("blob"),
        "picocli", Set.of("cli"),
        "org.apache.kafka.streams", Set.of(APP, "topology", "config", "ops", "cli", "bench"),
        "org.rocksdb", Set.of("topology"));

    @Test
    void shouldImportOnlyAcrossTheRoomsTheMapAllows() {
        List<String> violations = new ArrayList<>();
        Set<String> rooms = new TreeSet<>();
        for (Path file : sources()) {
            String room = roomOf(file);
            rooms.add(room);
            Set<String> allowed = ALLOWED.get(room);
            if (allowed == null) {
                violations.add(file + ": room " + room + " is not in the map");
                continue;
            }
            Matcher m = IMPORT.matcher(read(file));
            while (m.find()) {
                String target = m.group(1) == null ? APP : m.group(1);
                if (!target.equals(room) && !target.equals("avro") && !allowed.contains(target)) {
                    violations.add(file + ": " + room + " imports " + target);
                }
            }
        }
        assertEquals(List.of(), violations);
        assertEquals(new TreeSet<>(ALLOWED.keySet()), rooms, "every room of the map exists, and no other");
    }

    @Test
    void shouldKeepEachLibraryInItsRooms() {
        List<String> violations = new ArrayList<>();
        for (Path file : sources()) {
            String room = roomOf(file);
            String text = read(file);
            LIBRARIES.forEach((library, rooms) -> {
                if (text.contains("\nimport " + library + ".") && !rooms.contains(room)) {
                    violations.add(file + ": " + room + " imports " + library);
                }
            });
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldSeeTheRootPackagesImports() {
        // the pattern reads io.mvsink.MvsinkApp as the root room, io.mvsink.protocol.X as protocol
        Matcher root = IMPORT.matcher("import io.mvsink.MvsinkApp;");
        assertTrue(root.find() && root.group(1) == null);
        Matcher room = IMPORT.matcher("import io.mvsink.protocol.Contributor;");
        assertTrue(room.find() && room.group(1).equals("protocol"));
    }

    private static List<Path> sources() {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String roomOf(Path file) {
        Path relative = MAIN.relativize(file);
        return relative.getNameCount() == 1 ? APP : relative.getName(0).toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
