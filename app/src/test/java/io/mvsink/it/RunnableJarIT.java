package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as the build leaves it (issue 13): under 50 MB, RocksDB's native library for
 * exactly the platforms the README names, a manifest that says its version and that it is
 * multi-release, the dependencies' NOTICE files merged into one, and Entra ID's credential (azure-identity)
 * without netty, the persistent token cache or JNA natives for other platforms.
 */
class RunnableJarIT {
    private static final Path JAR = Path.of("target", "mvsink.jar");
    private static final Path ARCHIVE = Path.of("target", "mvsink.jsa");
    private static final Path CLASS_LIST = Path.of("src", "main", "cds", "mvsink.classlist");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void shouldBeSmallAndCarryTheNativesOfTheSupportedPlatformsOnly() throws IOException {
        assertTrue(Files.size(JAR) < 50L * 1024 * 1024, "mvsink.jar is " + Files.size(JAR) + " bytes");
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (String kept : List.of("librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so",
                    "librocksdbjni-osx-x86_64.jnilib", "librocksdbjni-osx-arm64.jnilib")) {
                assertNotNull(jar.getEntry(kept), kept);
            }
            long others = jar.stream().filter(e -> e.getName().startsWith("librocksdbjni-")).count();
            assertEquals(4, others, "RocksDB natives other than the four supported platforms'");
        }
    }

    @Test
    void shouldCarryDefaultAzureCredentialWithoutNettyOrWhatOnlyOtherPlatformsUse() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertNotNull(jar.getEntry("com/azure/identity/DefaultAzureCredential.class"));
            assertNotNull(jar.getEntry("com/sun/jna/Platform.class"), "the credential chain's OS checks");
            for (String left : List.of("io/netty/", "com/azure/core/http/netty/", "com/microsoft/aad/msal4jextensions/",
                    "com/sun/jna/platform/")) {
                assertEquals(0, jar.stream().filter(e -> e.getName().startsWith(left)).count(), left);
            }
            List<String> jnaNatives = jar.stream().map(e -> e.getName())
                .filter(name -> name.startsWith("com/sun/jna/") && name.contains("libjnidispatch")).sorted().toList();
            assertEquals(List.of("com/sun/jna/darwin-aarch64/libjnidispatch.jnilib",
                "com/sun/jna/darwin-x86-64/libjnidispatch.jnilib", "com/sun/jna/linux-aarch64/libjnidispatch.so",
                "com/sun/jna/linux-x86-64/libjnidispatch.so"), jnaNatives);
        }
    }

    @Test
    void shouldSayItsVersionAndMergeTheNotices() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            Manifest manifest = jar.getManifest();
            assertEquals("true", manifest.getMainAttributes().getValue("Multi-Release"));
            assertNotNull(manifest.getMainAttributes().getValue("Implementation-Version"));
            assertEquals("io.mvsink.cli.Main", manifest.getMainAttributes().getValue("Main-Class"));
            String notice = new String(jar.getInputStream(jar.getEntry("META-INF/NOTICE")).readAllBytes(),
                StandardCharsets.UTF_8);
            assertTrue(notice.contains("Jackson") && notice.contains("Apache Commons"),
                "one NOTICE with every dependency's notices:\n" + notice);
            assertNotNull(jar.getEntry("META-INF/LICENSE"));
            String kafka = new String(jar.getInputStream(jar.getEntry("NOTICE")).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(kafka.contains("Apache Kafka"), "Apache Kafka's NOTICE:\n" + kafka);
        }
    }

    /**
     * The class-data sharing archive the build leaves beside the jar (docs/ARCHITECTURE.md,
     * "Start-up"): made for this jar (a JVM maps it only for the jar it was made for, at its path and
     * with its size and time), holding the classes of the sink's path, and mapped by a launch as
     * the README writes it ({@code -Xshare:on} makes the JVM fail where it would silently do without).
     */
    @Test
    void shouldLeaveAClassDataSharingArchiveForThisJarWithTheSinksClasses() throws Exception {
        assertTrue(Files.isRegularFile(ARCHIVE), ARCHIVE + " beside the jar (the package phase's cds-archive)");
        String printed = output(JAVA, "-XX:SharedArchiveFile=" + ARCHIVE, "-XX:+PrintSharedArchiveAndExit",
            "-XX:+PrintSharedDictionary", "-cp", JAR.toString());
        assertTrue(printed.contains("archive is valid"), "the archive was made for another jar:\n" + tail(printed));
        for (String shared : List.of("io.mvsink.MvsinkApp", "io.mvsink.topology.CorrectionProcessor",
                "io.mvsink.topology.AppenderProcessor", "io.mvsink.protocol.BatchCoalescer",
                "org.apache.kafka.streams.KafkaStreams", "org.apache.kafka.clients.producer.KafkaProducer",
                "org.apache.avro.generic.GenericDatumWriter", "com.azure.storage.blob.BlobContainerClient")) {
            assertTrue(printed.contains(" " + shared + " app_loader"), shared + " is not in the archive");
        }

        String launched = output(JAVA, "-XX:SharedArchiveFile=" + ARCHIVE, "-Xshare:on", "-Xlog:class+load=info",
            "-jar", JAR.toString(), "--version");
        assertTrue(launched.contains("io.mvsink.cli.Main source: shared objects file"), tail(launched));
    }

    /**
     * With a class file load hook on (Flight Recorder, as an operator's {@code -XX:StartFlightRecording}
     * or a Java agent turns on), the JVM loads every class the archive holds without crashing. JDK 17
     * crashed (SIGSEGV in {@code KlassFactory::check_shared_class_file_load_hook}) on the method handle
     * classes that {@code -Xshare:dump} generates from a class list's {@code @lambda-form-invoker}
     * lines, at the sink's start under a JFR profile; the list leaves them out.
     */
    @Test
    void shouldLoadTheArchivedClassesUnderFlightRecorder(@TempDir Path dir) throws Exception {
        String classPath = JAR + File.pathSeparator + Path.of("target", "test-classes");
        String loaded = output(JAVA, "-XX:SharedArchiveFile=" + ARCHIVE, "-Xshare:on",
            "-XX:StartFlightRecording=settings=profile,filename=" + dir.resolve("load.jfr"), "-cp", classPath,
            LoadArchivedClasses.class.getName(), CLASS_LIST.toString());
        Matcher m = Pattern.compile("loaded (\\d+) classes").matcher(loaded);
        assertTrue(m.find(), tail(loaded));
        assertTrue(Integer.parseInt(m.group(1)) > 5_000, "classes loaded: " + m.group(1));
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running: " + String.join(" ", command));
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + tail(text));
        return text;
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }
}
