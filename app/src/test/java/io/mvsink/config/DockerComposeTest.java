package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker/compose.yaml and docker/Dockerfile, checked without a Docker engine: the sink's
 * environment is a valid configuration, every referenced file exists, the JMX port is published,
 * and the image builds in one stage and runs the jar as a non-root user in another.
 */
class DockerComposeTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCKER = ROOT.resolve("docker");
    private static final List<String> SINK_SERVICES = List.of("mvsink", "producer");

    private final JsonNode compose = new YAMLMapper().readTree(DOCKER.resolve("compose.yaml").toFile());
    private final Dockerfile dockerfile = new Dockerfile(Files.readString(buildContext().resolve(dockerfilePath())));

    DockerComposeTest() throws IOException {
    }

    @Test
    void shouldConfigureTheSinkCompletelyFromMvsinkVariables() {
        for (String service : SINK_SERVICES) {
            Map<String, String> env = new HashMap<>(dockerfile.env());
            compose.path("services").path(service).path("environment").fields()
                .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));

            Map<String, String> options = EnvironmentOptions.fromEnvironment(env);

            for (var key : MvsinkConfig.DEFINITION.configKeys().values()) {
                assertTrue(key.hasDefault() || options.containsKey(key.name),
                    service + " sets required option " + key.name + " as " + EnvironmentOptions.variableOf(key.name));
            }
            MvsinkConfig config = new MvsinkConfig(options);
            assertEquals("orders-corrections", config.correctionsTopic(), service);
        }
    }

    @Test
    void shouldCreateTheCorrectionsTopicTheSinkReads() {
        String topic = compose.at("/services/mvsink/environment/MVSINK_CORRECTIONS_TOPIC").asText();
        List<String> command = texts(compose.at("/services/kafka-init/command"));
        assertTrue(command.get(0).endsWith("kafka-topics.sh"), command.toString());
        assertEquals(topic, command.get(command.indexOf("--topic") + 1));
        assertEquals("service_completed_successfully",
            compose.at("/services/mvsink/depends_on/kafka-init/condition").asText());
    }

    @Test
    void shouldWaitOnlyForHealthchecksThatExist() {
        compose.at("/services/mvsink/depends_on").fields().forEachRemaining(dependency -> {
            JsonNode service = compose.path("services").path(dependency.getKey());
            assertFalse(service.isMissingNode(), "service " + dependency.getKey() + " exists");
            if (dependency.getValue().path("condition").asText().equals("service_healthy")) {
                assertFalse(service.path("healthcheck").isMissingNode(), dependency.getKey() + " has a healthcheck");
            }
        });
    }

    @Test
    void shouldReferenceOnlyFilesThatExist() {
        Path context = buildContext();
        assertEquals(ROOT, context, "the build context is the repository root");
        assertTrue(Files.isRegularFile(context.resolve(dockerfilePath())), "dockerfile " + dockerfilePath());
        for (String source : dockerfile.copiedSources()) {
            assertTrue(Files.exists(context.resolve(source)), "COPY source " + source + " exists in the repository");
        }
        compose.path("services").fields().forEachRemaining(service -> {
            for (JsonNode volume : service.getValue().path("volumes")) {
                String source = volume.asText().split(":")[0];
                if (source.startsWith(".") || source.startsWith("/")) {
                    assertTrue(Files.exists(DOCKER.resolve(source)), service.getKey() + " mounts " + source);
                } else {
                    assertTrue(compose.path("volumes").has(source), "named volume " + source + " is declared");
                }
            }
        });
        assertEquals(compose.at("/services/mvsink/image").asText(), compose.at("/services/producer/image").asText(),
            "the producer runs the image the mvsink service builds");
    }

    @Test
    void shouldStartNoRemoteJmxInTheImageByDefault() {
        String javaOptions = dockerfile.env().getOrDefault("JDK_JAVA_OPTIONS", "");
        assertFalse(javaOptions.contains("jmxremote"), "the image opens no JMX port by itself: " + javaOptions);
        assertFalse(dockerfile.instructions("EXPOSE").contains("9999"), "no JMX port exposed");
    }

    /**
     * docker/README.md, "Memory": in the smallest container it recommends (1.5 GiB) the heap share
     * leaves room for RocksDB's default bound and the JVM's ~350 MiB outside the heap; the stack's
     * own JDK_JAVA_OPTIONS (set whole) keep the image's share.
     */
    @Test
    void shouldLeaveRoomOutsideTheHeapForRocksDbAndTheJvm() {
        long mib = 1024 * 1024;
        long container = 1536 * mib;
        long outsideHeap = MvsinkConfig.ROCKSDB_MEMORY_DEFAULT + 350 * mib;
        int imageShare = heapShare(dockerfile.env().getOrDefault("JDK_JAVA_OPTIONS", ""));
        assertTrue(container * (100 - imageShare) / 100 >= outsideHeap, "-XX:MaxRAMPercentage=" + imageShare
            + " leaves " + container * (100 - imageShare) / 100 / mib + " MiB of 1.5 GiB outside the heap, not "
            + outsideHeap / mib);
        assertEquals(imageShare, heapShare(compose.at("/services/mvsink/environment/JDK_JAVA_OPTIONS").asText()));
    }

    private static int heapShare(String javaOptions) {
        Matcher m = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)").matcher(javaOptions);
        assertTrue(m.find(), "JDK_JAVA_OPTIONS sets -XX:MaxRAMPercentage: " + javaOptions);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void shouldOptIntoJmxOnlyInTheLocalStackAndOnlyOnLoopback() {
        String javaOptions = compose.at("/services/mvsink/environment/JDK_JAVA_OPTIONS").asText();
        String port = property(javaOptions, "com.sun.management.jmxremote.port");
        assertEquals(port, property(javaOptions, "com.sun.management.jmxremote.rmi.port"), "one port for JMX and RMI");
        assertTrue(texts(compose.at("/services/mvsink/ports")).contains("127.0.0.1:" + port + ":" + port),
            "JMX published on the host's loopback only");
    }

    @Test
    void shouldPublishEveryPortOnTheHostsLoopbackOnly() {
        compose.path("services").fields().forEachRemaining(service -> service.getValue().path("ports").forEach(
            port -> assertTrue(port.asText().startsWith("127.0.0.1:"),
                service.getKey() + " publishes " + port.asText() + " on every interface")));
    }

    /**
     * The HEALTHCHECK runs as Docker runs it (its exec form, here with the machine's bash) against
     * a server on the health port: healthy on 200, unhealthy on 503 or with nothing listening; and
     * it starts no JVM (issue 22 item 6).
     */
    @Test
    void shouldCheckItsHealthWithBashAloneOnTheHttpPort() throws Exception {
        String port = dockerfile.env().get("MVSINK_HTTP_PORT");
        assertTrue(port != null && Integer.parseInt(port) > 0, "the image turns the health endpoint on");
        assertTrue(dockerfile.instructions("EXPOSE").contains(port), "EXPOSE " + port);
        List<String> checks = dockerfile.runtimeInstructions("HEALTHCHECK");
        assertEquals(1, checks.size(), checks.toString());
        String check = checks.get(0);
        List<String> command = texts(new ObjectMapper().readTree(check.substring(check.indexOf("CMD ") + 4)));
        assertFalse(command.contains("java") || String.join(" ", command).contains("java "), "no JVM: " + command);

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        int[] status = {200};
        server.createContext("/health", exchange -> {
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status[0], body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        int live = server.getAddress().getPort();
        try {
            assertEquals(0, run(command, live), "healthy on 200");
            status[0] = 503;
            assertEquals(1, run(command, live), "unhealthy on 503");
        } finally {
            server.stop(0);
        }
        assertEquals(1, run(command, live), "unhealthy with nothing listening");
    }

    private static int run(List<String> command, int port) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MVSINK_HTTP_PORT", Integer.toString(port));
        Process process = builder.start();
        process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "the check ends within its timeout");
        return process.exitValue();
    }

    @Test
    void shouldPinItsBaseImagesAndLabelTheImage() {
        for (String from : dockerfile.instructions("FROM")) {
            String image = from.split(" ")[0];
            assertTrue(image.matches(".+:\\d+\\.\\d+\\.\\d+.*"), "base image pinned to an exact version: " + image);
        }
        for (String label : List.of("org.opencontainers.image.title", "org.opencontainers.image.description",
                "org.opencontainers.image.version", "org.opencontainers.image.base.name")) {
            assertTrue(dockerfile.instructions("LABEL").stream().anyMatch(l -> l.contains(label)), "LABEL " + label);
        }
    }

    @Test
    void shouldBuildInOneStageAndRunTheJarAsNonRootInAnother() throws IOException {
        List<String> stages = dockerfile.instructions("FROM");
        assertEquals(2, stages.size(), stages.toString());
        assertTrue(stages.get(0).matches("maven:3\\.9\\.\\d+-eclipse-temurin-17 AS build"), stages.get(0));
        assertTrue(stages.get(1).matches("eclipse-temurin:17\\.0\\.\\d+_\\d+-jre-jammy"), stages.get(1));

        List<String> users = dockerfile.runtimeInstructions("USER");
        assertFalse(users.isEmpty(), "the runtime stage sets a USER");
        String user = users.get(users.size() - 1);
        assertFalse(user.equals("root") || user.startsWith("0"), "runs as " + user);
        assertTrue(user.matches("[1-9]\\d*(:[1-9]\\d*)?"), "a numeric user (Kubernetes' runAsNonRoot): " + user);

        assertTrue(dockerfile.runtimeInstructions("COPY").contains("--from=build /src/app/target/mvsink.jar /app/mvsink.jar"));
        List<String> entrypoint = texts(new ObjectMapper().readTree(dockerfile.runtimeInstructions("ENTRYPOINT").get(0)));
        assertEquals("java", entrypoint.get(0));
        assertEquals("/app/mvsink.jar", entrypoint.get(entrypoint.indexOf("-jar") + 1));
        // the class-data sharing archive: made in the runtime stage (by the JVM that maps it) for the
        // jar at the path the entry point runs, and mapped by it
        assertTrue(entrypoint.contains("-XX:SharedArchiveFile=/app/mvsink.jsa"), entrypoint.toString());
        assertTrue(dockerfile.runtimeInstructions("RUN").stream().anyMatch(run -> run.contains("-Xshare:dump")
            && run.contains("-XX:SharedArchiveFile=/app/mvsink.jsa") && run.contains("-cp /app/mvsink.jar")),
            "the runtime stage dumps the archive for /app/mvsink.jar");
        assertEquals(List.of("run"), texts(new ObjectMapper().readTree(dockerfile.runtimeInstructions("CMD").get(0))));
        assertTrue(dockerfile.instructions("RUN").stream().anyMatch(run -> run.contains("-pl app")),
            "the image builds only the app module (no local-stack, no npm)");
    }

    private Path buildContext() {
        return DOCKER.resolve(compose.at("/services/mvsink/build/context").asText()).normalize();
    }

    private String dockerfilePath() {
        return compose.at("/services/mvsink/build/dockerfile").asText();
    }

    private static String property(String javaOptions, String name) {
        Matcher m = Pattern.compile("-D" + Pattern.quote(name) + "=(\\S+)").matcher(javaOptions);
        assertTrue(m.find(), "JDK_JAVA_OPTIONS sets " + name);
        return m.group(1);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
    }

    /** The instructions of a Dockerfile, continuation lines joined and comments dropped. */
    private record Dockerfile(List<String[]> lines) {
        Dockerfile(String text) {
            this(parse(text));
        }

        private static List<String[]> parse(String text) {
            List<String[]> out = new ArrayList<>();
            String joined = text.replaceAll("\\\\\\r?\\n", "");
            for (String line : joined.split("\\r?\\n")) {
                String trimmed = line.strip();
                if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                    out.add(trimmed.split("\\s+", 2));
                }
            }
            return out;
        }

        List<String> instructions(String name) {
            return lines.stream().filter(l -> l[0].equalsIgnoreCase(name)).map(l -> l.length > 1 ? l[1] : "").toList();
        }

        List<String> runtimeInstructions(String name) {
            int lastFrom = 0;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i)[0].equalsIgnoreCase("FROM")) {
                    lastFrom = i;
                }
            }
            return new Dockerfile(lines.subList(lastFrom, lines.size())).instructions(name);
        }

        /** Build-context files the COPY instructions read (not those copied from another stage). */
        List<String> copiedSources() {
            List<String> out = new ArrayList<>();
            for (String copy : instructions("COPY")) {
                if (copy.startsWith("--from=")) {
                    continue;
                }
                String[] words = copy.split("\\s+");
                for (int i = 0; i < words.length - 1; i++) {
                    if (!words[i].startsWith("--")) {
                        out.add(words[i]);
                    }
                }
            }
            return out;
        }

        /** ENV key=value pairs, values unquoted (the image's defaults under compose's environment). */
        Map<String, String> env() {
            Map<String, String> out = new HashMap<>();
            Matcher m = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"([^\"]*)\"|\\S*)").matcher(
                String.join("\n", instructions("ENV")));
            while (m.find()) {
                out.put(m.group(1), m.group(3) != null ? m.group(3) : m.group(2));
            }
            return out;
        }
    }
}
