package io.mvsink.cli;

import io.mvsink.MvsinkApp;
import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.logging.ShardLogContext;
import io.mvsink.ops.Health;
import io.mvsink.ops.OpsServer;
import io.mvsink.ops.ScrapeRegistry;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
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
        try (ShardLogContext.Scope scope = ShardLogContext.enter(config.shard())) {
            return run(config, Main.log());
        }
    }

    /** Runs the shard of {@code config}; its lifecycle lines (shard in the MDC) go to {@code log}. */
    private static int run(MvsinkConfig config, Logger log) throws InterruptedException {
        log.info("starting");
        MvsinkApp.Dependencies deps = Wiring.dependencies(config);
        MvsinkApp app = new MvsinkApp(config, deps);
        CountDownLatch stopped = new CountDownLatch(1);
        // set before the hook closes the app: a NOT_RUNNING the close causes is then never taken for a failure
        AtomicBoolean stopping = new AtomicBoolean();
        OpsServer ops = opsServer(config, app);
        Runtime.getRuntime().addShutdownHook(new Thread(ShardLogContext.wrap(config.shard(), () -> {
            stopping.set(true);
            log.info("stopping: committing, closing builders");
            if (ops != null) {
                ops.close();
            }
            app.close(Duration.ofSeconds(30));
            deps.close();
            log.info("stopped");
            stopped.countDown();
        }), "mvsink-shutdown"));
        app.start();
        log.info("started; SIGTERM or Ctrl-C stops it gracefully");
        while (stopped.getCount() > 0) {
            if (stoppedByItself(app.state(), stopping)) {
                log.error("the app stopped ({}){}; see the log above", app.state(),
                    app.failure().map(RunCommand::rootMessage).map(m -> ": " + m).orElse(""));
                return 1;
            }
            stopped.await(1, java.util.concurrent.TimeUnit.SECONDS);
        }
        return 0;
    }

    /**
     * Whether the app stopped without being asked to: its state ({@code state}, read first) is ERROR or
     * NOT_RUNNING and no stop was asked for. Read in this order, a NOT_RUNNING that the shutdown hook's
     * close caused is always seen with {@code stopping} set (GracefulShutdownIT once logged "the app
     * stopped (NOT_RUNNING)" during a SIGTERM's stop, the hook still closing the builders).
     */
    static boolean stoppedByItself(KafkaStreams.State state, AtomicBoolean stopping) {
        return (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) && !stopping.get();
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
        Main.log().info("health at http://<host>:{}/health, metrics at /metrics", server.port());
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
