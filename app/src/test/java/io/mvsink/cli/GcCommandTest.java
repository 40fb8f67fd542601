package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gc command's refusals, decided before it reaches Kafka or storage. */
class GcCommandTest {
    private static final List<String> OPTIONS = List.of("--set", "bootstrap.servers=127.0.0.1:1",
        "--set", "corrections.topic=orders", "--set", "schema.registry.url=http://127.0.0.1:1",
        "--set", "blob.connection.string=UseDevelopmentStorage=true", "--set", "gc.grace.ms=60000");

    @Test
    void shouldRefuseAGraceBelowTheOneTheAppsRunWith() {
        String err = failing("gc", "--grace-ms", "59999");
        assertTrue(err.contains("--grace-ms 59999") && err.contains("gc.grace.ms"), err);
    }

    @Test
    void shouldRefuseAnotherShardWithTheConfiguredShardsExplicitPrefix() {
        String err = failing("gc", "--shard", "payments", "--set", "blob.prefix=orders-parts/");
        assertTrue(err.contains("--shard payments") && err.contains("blob.prefix"), err);
    }

    private static String failing(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(OPTIONS);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(1, Main.execute(all.toArray(String[]::new)));
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
