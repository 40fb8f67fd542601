package io.mvsink.read;

/**
 * A subscription cannot read a part of the state it follows: the part was retired by a compaction
 * and deleted by the GC before the subscription read it. Fatal for the subscription; a resume
 * from the last token (the message names it) reads the shard afresh.
 */
public class SubscriptionLaggedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public SubscriptionLaggedException(String message, Throwable cause) {
        super(message, cause);
    }
}
