package io.mvsink.ops;

import io.mvsink.metrics.SealProgress;
import java.util.Locale;
import java.util.OptionalLong;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Whether one shard's app is healthy: its stream threads run (Kafka Streams is RUNNING or
 * REBALANCING) and its seals advance (no closed input has waited above the sealed upper for
 * {@code health.seal.stall.ms}). {@code live} asks only the first.
 *
 * @param up the verdict
 * @param reason why not, or "ok"
 */
public record Health(boolean up, String state, long sealedUpper, long sinceSealRoseMs, long closedUpTo, String reason) {

    /** The verdict for an app in {@code state} whose tasks saw {@code progress}. */
    public static Health of(KafkaStreams.State state, SealProgress progress, long nowMs, long stallMs, boolean live) {
        long sealed = progress.sealedUpper();
        long since = sealed < 0 ? -1 : nowMs - progress.risenAtMs();
        OptionalLong closed = progress.maxClosed();
        long closedUpTo = closed.isPresent() ? closed.getAsLong() : -1;
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
            return new Health(false, state.name(), sealed, since, closedUpTo, "stream threads are " + state);
        }
        if (!live && progress.stalled(nowMs, stallMs)) {
            return new Health(false, state.name(), sealed, since, closedUpTo, "input closed up to " + closedUpTo
                + " waits above the sealed upper " + sealed + ", which has not risen for " + since + " ms");
        }
        return new Health(true, state.name(), sealed, since, closedUpTo, "ok");
    }

    /** One line of JSON. */
    public String json() {
        return String.format(Locale.ROOT,
            "{\"status\":\"%s\",\"state\":\"%s\",\"sealedUpper\":%d,\"sinceSealRoseMs\":%d,\"closedUpTo\":%d,\"reason\":\"%s\"}",
            up ? "UP" : "DOWN", state, sealedUpper, sinceSealRoseMs, closedUpTo, reason.replace("\"", "'"));
    }
}
