package io.mvsink.local;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.utils.Time;

/**
 * Apicurio Registry 2.x (Quarkus, in-memory storage by default) serving the Confluent-compatible
 * API at {@code /apis/ccompat/v7}.
 */
final class ApicurioProcess implements StackComponent {

    private static final String HOST = "127.0.0.1";
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final ManagedProcess process;
    private final int port;

    ApicurioProcess(StackLayout layout, Path workDir, Time time) {
        this.port = FreePorts.pick();
        Path dir = workDir.resolve("apicurio");
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-Xms64m", "-XX:+UseSerialGC", "-Djava.awt.headless=true",
                "-Dquarkus.http.host=" + HOST,
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.level=WARN",
                "-Dquarkus.log.console.color=false",
                "-Djava.io.tmpdir=" + dir,
                "-jar", layout.apicurioJar().toString());
        this.process = new ManagedProcess("apicurio", command, dir, dir.resolve("apicurio.log"),
                STOP_GRACE, time);
    }

    @Override
    public String name() {
        return "apicurio";
    }

    @Override
    public String address() {
        return HOST + ":" + port;
    }

    /** Base URL of the Confluent-compatible API. */
    String registryUrl() {
        return "http://" + address() + "/apis/ccompat/v7";
    }

    @Override
    public void start(Duration timeout) {
        URI subjects = URI.create(registryUrl() + "/subjects");
        process.start(() -> Probes.httpGetStatus(subjects) == 200, timeout);
    }

    @Override
    public void stop() {
        process.stop();
    }
}
