package io.mvsink.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The rooms' import rules are Checkstyle's ImportControl, run by the build before anything
 * compiles ({@code checkstyle/import-control.xml} for the main sources, {@code
 * import-control-test.xml} for the tests; {@code mvn -B -o checkstyle:check -pl app}). This test
 * checks only what ImportControl cannot say:
 * <ul>
 *   <li>that every room of the main sources is declared in import-control.xml, and no room that is
 *       gone: a package the file does not list gets only its top rules, so a new room importing
 *       only the JDK would pass unseen;</li>
 *   <li>that no source names a room or a library in full in its code
 *       ({@code java.net.http.HttpClient.newBuilder()}) where its room could not import it:
 *       ImportControl reads import lines only. The names are judged by the same file's rules.</li>
 * </ul>
 */
class RoomsTest {
    private static final Path MAIN = Path.of("src", "main", "java", "io", "mvsink");
    private static final Path TEST = Path.of("src", "test", "java", "io", "mvsink");
    private static final Path MAIN_RULES = Path.of("..", "checkstyle", "import-control.xml");
    private static final Path TEST_RULES = Path.of("..", "checkstyle", "import-control-test.xml");
    /** The root package's room (MvsinkApp, Wiring, DepartedTransactions): the top rules, local ones included. */
    private static final String ROOT = "";
    /** A qualified type name in code: lower-case package segments, then a type. */
    private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])((?:[a-z_][a-z0-9_]*\\.)+)([A-Z]\\w*)");
    private static final Pattern IMPORT_OR_PACKAGE = Pattern.compile("^\\s*(?:import|package)\\s[^;]*;", Pattern.MULTILINE);

    @Test
    void shouldDeclareEveryRoomOfTheMainSourcesAndNoOther() throws IOException {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(MAIN)) {
            dirs.filter(Files::isDirectory).forEach(d -> packages.add(d.getFileName().toString()));
        }
        Set<String> declared = new TreeSet<>(ImportRules.read(MAIN_RULES).rooms.keySet());
        declared.remove(ROOT);
        assertEquals(packages, declared, "the rooms of src/main/java/io/mvsink and the subpackages of " + MAIN_RULES);
    }

    @Test
    void shouldNameNoRoomOrLibraryInFullThatItsRoomMayNotImport() {
        List<String> violations = new ArrayList<>();
        violations.addAll(qualifiedNamesRefused(MAIN, ImportRules.read(MAIN_RULES)));
        violations.addAll(qualifiedNamesRefused(TEST, ImportRules.read(TEST_RULES)));
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldJudgeNamesAsImportControlDoes() {
        ImportRules rules = ImportRules.read(MAIN_RULES);
        assertTrue(rules.allows("blob", "com.azure.core.util.Context"));
        assertFalse(rules.allows("codec", "com.azure.core.util.Context"));
        // the top rules refuse the JDK's HTTP client before they allow java; blob allows it first
        assertTrue(rules.allows("blob", "java.net.http.HttpClient"));
        assertFalse(rules.allows("read", "java.net.http.HttpClient"));
        assertTrue(rules.allows("read", "java.net.URI"));
        // the root package's own rules (local-only) do not reach the rooms below it
        assertTrue(rules.allows(ROOT, "io.mvsink.topology.SinkTopology"));
        assertFalse(rules.allows("protocol", "io.mvsink.topology.SinkTopology"));
        assertTrue(rules.allows("cli", "io.mvsink.MvsinkApp"));
        assertFalse(rules.allows("gc", "io.mvsink.MvsinkApp"));
        // a room the file does not list gets the top rules only
        assertFalse(rules.allows("newroom", "io.mvsink.batch.Batch"));
        assertTrue(rules.allows("newroom", "io.mvsink.avro.Contribution"));
    }

    @Test
    void shouldSeeQualifiedNamesInCodeOnly() {
        String source = "package io.mvsink.read;\nimport java.net.http.HttpClient;\n"
            + "/** {@link java.net.http.HttpRequest} */\nclass A {\n"
            + "  // java.net.http.HttpResponse\n"
            + "  String s = \"java.net.http.WebSocket\" + '\"';\n"
            + "  Object c = java.net.http.HttpClient.newBuilder(); int n = this.x.Y;\n}\n";
        assertEquals(List.of("java.net.http.HttpClient", "this.x.Y"), qualifiedNames(source));
        ImportRules rules = ImportRules.read(MAIN_RULES);
        assertTrue(rules.governs("java.net.http.HttpClient"));
        assertTrue(rules.governs("picocli.CommandLine"));
        assertFalse(rules.governs("this.x.Y"));
    }

    private static List<String> qualifiedNamesRefused(Path tree, ImportRules rules) {
        List<String> violations = new ArrayList<>();
        for (Path file : sources(tree)) {
            Path relative = tree.relativize(file);
            String room = relative.getNameCount() == 1 ? ROOT : relative.getName(0).toString();
            for (String name : qualifiedNames(read(file))) {
                if (rules.governs(name) && !rules.allows(room, name)) {
                    violations.add(file + ": " + name + " (written in full; its room may not import it)");
                }
            }
        }
        return violations;
    }

    /** The qualified type names in a source's code, not in its imports, comments or literals. */
    static List<String> qualifiedNames(String source) {
        String code = IMPORT_OR_PACKAGE.matcher(codeOnly(source)).replaceAll("");
        List<String> names = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(code);
        while (m.find()) {
            names.add(m.group(1) + m.group(2));
        }
        return names;
    }

    /** The source with its comments, string and char literals (text blocks too) blanked out. */
    private static String codeOnly(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            int end;
            if (source.startsWith("//", i)) {
                end = endOf(source, "\n", i + 2, 0);
            } else if (source.startsWith("/*", i)) {
                end = endOf(source, "*/", i + 2, 2);
            } else if (source.startsWith("\"\"\"", i)) {
                end = endOf(source, "\"\"\"", i + 3, 3);
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                end = i + 1;
                while (source.charAt(end) != source.charAt(i)) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end++;
            } else {
                out.append(source.charAt(i++));
                continue;
            }
            out.append(' ');
            i = end;
        }
        return out.toString();
    }

    private static int endOf(String source, String closing, int from, int length) {
        int at = source.indexOf(closing, from);
        return at < 0 ? source.length() : at + length;
    }

    /** One import-control file: the top rules (in order) and each room's, as ImportControl applies them. */
    record ImportRules(List<Rule> top, Map<String, List<Rule>> rooms) {
        record Rule(boolean allow, String pkg, boolean exactMatch, boolean localOnly) {
            boolean matches(String typeName) {
                String pkgOfType = typeName.substring(0, typeName.lastIndexOf('.'));
                return pkgOfType.equals(pkg) || !exactMatch && pkgOfType.startsWith(pkg + ".");
            }
        }

        static ImportRules read(Path file) {
            try {
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
                Element root = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
                Map<String, List<Rule>> rooms = new LinkedHashMap<>();
                List<Rule> top = rules(root);
                rooms.put(ROOT, top);
                for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && e.getTagName().equals("subpackage")) {
                        rooms.put(e.getAttribute("name"), rules(e));
                    }
                }
                return new ImportRules(top, rooms);
            } catch (Exception e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }

        private static List<Rule> rules(Element parent) {
            List<Rule> rules = new ArrayList<>();
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && (e.getTagName().equals("allow") || e.getTagName().equals("disallow"))) {
                    if (!e.hasAttribute("pkg")) {
                        throw new IllegalStateException("only pkg rules are read here: " + e.getAttribute("class"));
                    }
                    rules.add(new Rule(e.getTagName().equals("allow"), e.getAttribute("pkg"),
                        "true".equals(e.getAttribute("exact-match")), "true".equals(e.getAttribute("local-only"))));
                }
            }
            return rules;
        }

        /** Whether the name is a package's at all: its first segment is one the rules name (java, org, ...). */
        boolean governs(String typeName) {
            String first = typeName.substring(0, typeName.indexOf('.'));
            return Stream.concat(top.stream(), rooms.values().stream().flatMap(List::stream))
                .anyMatch(r -> r.pkg().equals(first) || r.pkg().startsWith(first + "."));
        }

        /** Whether a file of this room may use this type: its room's rules first, then the top's. */
        boolean allows(String room, String typeName) {
            List<Rule> ordered = new ArrayList<>();
            if (!room.equals(ROOT)) {
                ordered.addAll(rooms.getOrDefault(room, List.of()));
                top.stream().filter(r -> !r.localOnly()).forEach(ordered::add);
            } else {
                ordered.addAll(top);
            }
            return ordered.stream().filter(r -> r.matches(typeName)).findFirst().map(Rule::allow).orElse(false);
        }
    }

    private static List<Path> sources(Path tree) {
        try (Stream<Path> files = Files.walk(tree)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
