package io.mvsink.protocol;

/**
 * The rule that holds a shard's minting until its app first runs: until then its tasks arrive one
 * by one, so a range minted then would be contributed by some of them only, and a barrier would
 * seal it in more than one batch. Later rebalances do not hold it: under churn (a kill every few
 * seconds) the group is rebalancing most of the time and holding would stop sealing; a task that
 * joins late contributes the rest of the range. The app tells it each state change
 * ({@link #stateChanged}); it holds and releases through {@link BatchCoalescer#holdMinting}.
 */
public final class MintingHold {
    private final BatchCoalescer batches;
    private final String shard;

    private MintingHold(BatchCoalescer batches, String shard) {
        this.batches = batches;
        this.shard = shard;
    }

    /** Holds {@code shard}'s minting from now until its app first runs. */
    public static MintingHold start(BatchCoalescer batches, String shard) {
        batches.holdMinting(shard, true);
        return new MintingHold(batches, shard);
    }

    /** The app's state changed; {@code running}: it runs now (Kafka Streams' RUNNING): minting is free. */
    public void stateChanged(boolean running) {
        if (running) {
            batches.holdMinting(shard, false);
        }
    }
}
