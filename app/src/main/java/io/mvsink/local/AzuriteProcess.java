package io.mvsink.local;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.utils.Time;

/** Azurite's blob service (Node.js), in-memory, with the well-known dev account. */
final class AzuriteProcess implements StackComponent {

    static final String ACCOUNT = "devstoreaccount1";
    /** Azurite's published development key; it guards nothing. */
    static final String ACCOUNT_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private static final String HOST = "127.0.0.1";
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final ManagedProcess process;
    private final int port;

    AzuriteProcess(StackLayout layout, Path workDir, Time time) {
        this.port = FreePorts.pick();
        Path dir = workDir.resolve("azurite");
        List<String> command = List.of(layout.azuriteBlob().toString(),
                "--blobHost", HOST, "--blobPort", Integer.toString(port),
                // Azurite 3.35 refuses --location together with --inMemoryPersistence
                "--inMemoryPersistence", "--skipApiVersionCheck", "--loose");
        this.process = new ManagedProcess("azurite", command, dir, dir.resolve("azurite.log"),
                STOP_GRACE, time);
    }

    @Override
    public String name() {
        return "azurite";
    }

    @Override
    public String address() {
        return HOST + ":" + port;
    }

    String blobEndpoint() {
        return "http://" + address() + "/" + ACCOUNT;
    }

    String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + ACCOUNT_KEY
                + ";BlobEndpoint=" + blobEndpoint() + ";";
    }

    @Override
    public void start(Duration timeout) {
        URI list = URI.create(blobEndpoint() + "?comp=list");
        process.start(() -> Probes.tcpOpen(HOST, port) && Probes.httpGetStatus(list) > 0, timeout);
    }

    @Override
    public void stop() {
        process.stop();
    }
}
