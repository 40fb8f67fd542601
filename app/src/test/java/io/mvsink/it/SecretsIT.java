package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.Wiring;
import io.mvsink.cli.Main;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.registry.RegistryUnavailableException;
import io.mvsink.registry.SchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Secrets never leak: not into anything the JVM logs while an app starts, sinks a workload and
 * stops (io.mvsink at debug), not into the configuration's dumps or the options reference, and not
 * into the messages of failures (an unreachable registry with basic auth, a bad connection string).
 */
@ExtendWith(LocalStackExtension.class)
class SecretsIT {
    private static final String PASSWORD = "Pw-7f3a9c1e-registry-secret";
    private static final String AUTH = "sinkuser:" + PASSWORD;

    @Test
    void shouldNotLogSecretsWhileAnAppStartsSinksAndStops(LocalStack stack) throws Exception {
        String accountKey = accountKey(stack);
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties());
             CorrectionProducer producer = sink.producer()) {
            // its own JVM, so that its loggers start at these levels whatever ran before in this one
            String log;
            try (ChildApp app = ChildApp.start(sink, "secrets", List.of(ChildApp.logLevels(Map.of(
                     "io.mvsink", "DEBUG", "org.apache.kafka", "INFO", "com.azure", "INFO"))),
                 List.of("--set", MvsinkConfig.REGISTRY_BASIC_AUTH + "=" + AUTH, "--set", "num.stream.threads=2"))) {
                WorkloadRunner runner = new WorkloadRunner(producer, new Workload(21, 100, 0.3), Time.SYSTEM);
                runner.run(500, 2_000, 3_000, 100, n -> { });
                sink.assertSealedExactly(runner.sealThrough(500));
                assertTrue(app.terminate(Duration.ofSeconds(60)), "mvsink run stops on SIGTERM");
                log = app.log();
            }
            assertTrue(log.length() > 1000, "the run logged something to check: " + log.length() + " chars");
            assertNoSecret("the app's log", log, accountKey);
        }
    }

    @Test
    void shouldNotDumpSecretsInTheConfigurationOrTheOptionsReference(LocalStack stack) {
        MvsinkConfig config = new MvsinkConfig(props(stack, "http://127.0.0.1:1"));
        String accountKey = accountKey(stack);
        assertNoSecret("config.toString()", config.toString(), accountKey);
        assertNoSecret("config.values()", config.values().toString(), accountKey);
        assertNoSecret("config.blobAccess()", config.blobAccess(Map.of()).toString(), accountKey);
        assertNoSecret("mvsink options", run(false, "options"), accountKey);
    }

    @Test
    void shouldNotPutSecretsInFailureMessages(LocalStack stack) {
        String accountKey = accountKey(stack);
        SchemaRegistry unreachable = Wiring.registry(new MvsinkConfig(props(stack, "http://127.0.0.1:1")));
        RegistryUnavailableException down = assertThrows(RegistryUnavailableException.class,
            () -> unreachable.register("s-value", Workload.ROW_SCHEMA));
        assertNoSecret("registry unreachable", messages(down), accountKey);
        MvsinkConfig credentialsInUrl = new MvsinkConfig(props(stack, "http://" + AUTH + "@127.0.0.1:1"));
        assertNoSecret("registry URL with credentials",
            messages(assertThrows(IllegalArgumentException.class, () -> Wiring.registry(credentialsInUrl))), accountKey);

        Map<String, Object> both = props(stack, stack.registryUrl());
        both.put(MvsinkConfig.BLOB_SAS_TOKEN, "sig=" + PASSWORD);
        both.put(MvsinkConfig.BLOB_ENDPOINT, "http://127.0.0.1:1/devstoreaccount1");
        assertNoSecret("connection string with a SAS token",
            messages(assertThrows(RuntimeException.class, () -> new MvsinkConfig(both))), accountKey);

        Map<String, Object> garbled = props(stack, stack.registryUrl());
        garbled.put(MvsinkConfig.BLOB_CONNECTION_STRING, "AccountName=devstoreaccount1;AccountKey=" + accountKey
            + ";BlobEndpoint=::not a url::;Nonsense");
        assertNoSecret("a garbled connection string",
            messages(assertThrows(RuntimeException.class, () -> Wiring.blobs(new MvsinkConfig(garbled), Map.of()))),
            accountKey);

        List<String> args = new java.util.ArrayList<>(List.of("snapshot"));
        both.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        String cli = run(true, args.toArray(String[]::new));
        assertTrue(cli.contains(" ERROR mvsink - ") && cli.contains(MvsinkConfig.BLOB_CONNECTION_STRING), cli);
        assertNoSecret("the snapshot command on a connection string with a SAS token", cli, accountKey);
    }

    private static Map<String, Object> props(LocalStack stack, String registryUrl) {
        Map<String, Object> props = new HashMap<>();
        props.put(MvsinkConfig.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        props.put(MvsinkConfig.CORRECTIONS_TOPIC, "secrets-corrections");
        props.put(MvsinkConfig.REGISTRY_URL, registryUrl);
        props.put(MvsinkConfig.REGISTRY_BASIC_AUTH, AUTH);
        props.put(MvsinkConfig.REGISTRY_TIMEOUT_MS, "1000");
        props.put(MvsinkConfig.BLOB_CONNECTION_STRING, stack.blobConnectionString());
        props.put(MvsinkConfig.BLOB_CONTAINER, "mvsink-it");
        props.put(MvsinkConfig.BLOB_MAX_ATTEMPTS, "1");
        return props;
    }

    private static void assertNoSecret(String where, String text, String accountKey) {
        assertFalse(text.contains(PASSWORD), where + " holds the registry password:\n" + text);
        assertFalse(text.contains(accountKey), where + " holds the account key:\n" + text);
        assertFalse(text.contains(accountKey.substring(0, 16)), where + " holds part of the account key:\n" + text);
    }

    private static String accountKey(LocalStack stack) {
        for (String part : stack.blobConnectionString().split(";")) {
            if (part.startsWith("AccountKey=")) {
                String key = part.substring("AccountKey=".length());
                assertNotEquals("", key);
                return key;
            }
        }
        throw new AssertionError("no AccountKey in the stack's connection string");
    }

    /** Every message of {@code e} and its causes, and its stack trace's text. */
    private static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            out.append(t).append('\n');
        }
        return out.toString();
    }

    /** Runs the command line, returning what it printed to stdout and stderr. */
    private static String run(boolean mayFail, String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream to = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(to);
        System.setErr(to);
        try {
            int exit = Main.execute(args);
            assertTrue(mayFail || exit == 0, "exit " + exit);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
