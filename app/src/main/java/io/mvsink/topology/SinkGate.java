package io.mvsink.topology;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The sink context the stream threads' processors wait for. The app starts its stream threads as
 * soon as the shard's topics exist, so that Kafka Streams' own start (its clients, the group's
 * rebalance, the restore of the stores) runs while the start reads the consensus topic, waits for
 * the blob store and checks the shard's placement; a processor initialises only once the app hands
 * the context over ({@link #open}), and fails if the start failed ({@link #fail}). Nothing is
 * written, contributed or sealed before every check of the start passed.
 */
public final class SinkGate {
    private final CompletableFuture<SinkContext> context = new CompletableFuture<>();

    /** A gate already open: for a topology whose context is known when it is built. */
    public static SinkGate open(SinkContext sink) {
        SinkGate gate = new SinkGate();
        gate.pass(sink);
        return gate;
    }

    /** The start passed every check: the processors initialise with {@code sink}. */
    public void pass(SinkContext sink) {
        context.complete(sink);
    }

    /** The start failed with {@code why}: every processor waiting or still to come fails. */
    public void fail(Throwable why) {
        context.completeExceptionally(why);
    }

    /** The context, once the start passed; waits for it until then. */
    SinkContext await() {
        try {
            return context.get();
        } catch (ExecutionException e) {
            throw new StartAbandonedException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartAbandonedException(e);
        }
    }

    /** A processor that was to run after a start that failed: the start's own error says why. */
    public static final class StartAbandonedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public StartAbandonedException(Throwable cause) {
            super("the app's start failed before this task could run: " + cause, cause);
        }
    }
}
