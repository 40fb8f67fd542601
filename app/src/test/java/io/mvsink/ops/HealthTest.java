package io.mvsink.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.cli.Main;
import io.mvsink.metrics.SealProgress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class HealthTest {
    private static final long STALL = 60_000;
    private final SealProgress progress = new SealProgress();

    @Test
    void shouldBeUpWhileThreadsRunAndSealsFollowTheClosedInput() {
        progress.observed(0, 5_000, 6_000, 1_000);
        progress.observed(1, 5_000, 5_000, 1_000);
        Health health = Health.of(State.RUNNING, progress, 30_000, STALL, false);
        assertTrue(health.up(), health.json());
        assertEquals(5_000, health.sealedUpper());
        assertEquals(6_000, health.closedUpTo());
        assertTrue(Health.of(State.REBALANCING, progress, 30_000, STALL, false).up(), "a rebalance is not a failure");
    }

    @Test
    void shouldBeDownWhenTheStreamThreadsDoNotRun() {
        for (State state : new State[] {State.CREATED, State.PENDING_SHUTDOWN, State.NOT_RUNNING, State.ERROR,
                State.PENDING_ERROR}) {
            Health health = Health.of(state, progress, 0, STALL, true);
            assertFalse(health.up(), state.name());
            assertTrue(health.json().contains("\"status\":\"DOWN\""), health.json());
        }
    }

    @Test
    void shouldBeDownWhenClosedInputWaitsAboveAStillSealedUpper() {
        progress.observed(0, 5_000, 9_000, 1_000);
        assertTrue(Health.of(State.RUNNING, progress, 1_000 + STALL - 1, STALL, false).up(), "not yet long enough");
        Health stalled = Health.of(State.RUNNING, progress, 1_000 + STALL, STALL, false);
        assertFalse(stalled.up(), stalled.json());
        assertTrue(stalled.reason().contains("9000") && stalled.reason().contains("5000"), stalled.reason());
        assertTrue(Health.of(State.RUNNING, progress, 1_000 + STALL, STALL, true).up(), "liveness asks threads only");

        progress.observed(0, 9_000, 9_000, 1_000 + STALL + 5);
        assertTrue(Health.of(State.RUNNING, progress, 1_000 + STALL + 10, STALL, false).up(), "sealed again");
    }

    @Test
    void shouldNeverCallIdleInputAStall() {
        progress.observed(0, 5_000, 5_000, 1_000);
        assertTrue(Health.of(State.RUNNING, progress, 1_000 + 10 * STALL, STALL, false).up(),
            "nothing closed above the sealed upper: nothing to seal");
    }

    @Test
    void shouldAnswerOverHttpAndTheHealthCommandShouldExitByIt() throws Exception {
        AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
        try (OpsServer server = OpsServer.start(0, live -> Health.of(state.get(), progress, 0, STALL, live))) {
            String url = "http://127.0.0.1:" + server.port() + "/health";
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> up = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, up.statusCode());
            assertTrue(up.body().contains("\"status\":\"UP\""), up.body());
            assertEquals(0, Main.execute("health", "--url", url));

            state.set(State.ERROR);
            HttpResponse<String> down = client.send(HttpRequest.newBuilder(URI.create(url + "/live")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(503, down.statusCode());
            assertEquals(1, Main.execute("health", "--url", url));
            assertEquals(404, client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/x"))
                .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }

    @Test
    void shouldFailTheHealthCommandWhenNothingAnswers() {
        assertEquals(1, Main.execute("health", "--url", "http://127.0.0.1:1/health"));
        assertEquals(1, Main.execute("health"), "no http.port and no --url: an error naming them");
    }
}
