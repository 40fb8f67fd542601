package io.mvsink.cli;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.ops.Health;
import io.mvsink.ops.OpsServer;
import io.mvsink.ops.ScrapeRegistry;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "run", description = "Runs the sink until SIGTERM or Ctrl-C, then stops gracefully: the stream "
    + "threads commit what they did, unreported batches are abandoned (their tasks contribute them again on "
    + "the next start), nothing is half-appended.")
final class RunCommand implements Callable<Integer> {
    @Mixin
    Settings settings;

    @Override
    public Integer call() throws InterruptedException {
        MvsinkConfig config = settings.config();
        MvsinkApp.Dependencies deps = Wiring.dependencies(config);
        MvsinkApp app = new MvsinkApp(config, deps);
        CountDownLatch stopped = new CountDownLatch(1);
        OpsServer ops = opsServer(config, app);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.err.println("mvsink: stopping shard " + config.shard() + " (committing, closing builders)");
            if (ops != null) {
                ops.close();
            }
            app.close(Duration.ofSeconds(30));
            deps.close();
            System.err.println("mvsink: stopped shard " + config.shard());
            stopped.countDown();
        }, "mvsink-shutdown"));
        app.start();
        System.err.println("mvsink: shard " + config.shard() + " running; Ctrl-C to stop");
        while (stopped.getCount() > 0) {
            if (app.state() == KafkaStreams.State.ERROR || app.state() == KafkaStreams.State.NOT_RUNNING) {
                System.err.println("mvsink: the app stopped (" + app.state() + ")"
                    + app.failure().map(RunCommand::rootMessage).map(m -> ": " + m).orElse("") + "; see the log above");
                return 1;
            }
            stopped.await(1, java.util.concurrent.TimeUnit.SECONDS);
        }
        return 0;
    }

    /** The HTTP endpoint of http.port (health and Prometheus metrics), or null when it is 0. */
    static OpsServer opsServer(MvsinkConfig config, MvsinkApp app) {
        int port = config.getInt(MvsinkConfig.HTTP_PORT);
        if (port == 0) {
            return null;
        }
        long stallMs = config.getLong(MvsinkConfig.HEALTH_SEAL_STALL_MS);
        OpsServer server = OpsServer.start(port, live -> Health.of(app.state(), app.metrics().sealProgress(),
            System.currentTimeMillis(), stallMs, live),
            ScrapeRegistry.of(app.metrics(), app::shardMetrics, app::kafkaMetrics));
        System.err.println("mvsink: health at http://<host>:" + server.port() + "/health, metrics at /metrics");
        return server;
    }

    /** The message of the innermost cause (Kafka Streams wraps what a processor threw). */
    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
