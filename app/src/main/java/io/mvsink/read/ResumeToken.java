package io.mvsink.read;

import io.mvsink.consensus.ShardState;
import java.util.Locale;

/**
 * Where a subscription stands: it has delivered every update with {@code time < upper}, as the
 * shard's state at append {@code seqno} holds them. Printed as {@code <seqno>:<upper>}, e.g.
 * {@code 812:1733280001000}; {@link #START} ({@code 0:0}) stands before the first append.
 *
 * <p>A resume from a token reads the updates with {@code upper <= time} from whatever batches the
 * shard holds then: compaction may have merged or rewritten the batches that held them, but keeps
 * their times, except that it advances times below the shard's since to the since. So a token is
 * readable only while its upper is above the since ({@link #requireReadable}): at or below it, an
 * older update advanced to the since could not be told apart from a newer one.
 */
public record ResumeToken(long seqno, long upper) {
    /** Before the first append: a resume from it delivers every update, seal by seal. */
    public static final ResumeToken START = new ResumeToken(0, 0);

    public ResumeToken {
        if (seqno < 0 || upper < 0) {
            throw new IllegalArgumentException("a token's seqno and upper are not negative: " + seqno + ":" + upper);
        }
    }

    /**
     * The token that {@link #toString()} printed.
     *
     * @throws IllegalArgumentException naming the text if it is not {@code <seqno>:<upper>}
     */
    public static ResumeToken parse(String text) {
        int colon = text.indexOf(':');
        try {
            if (colon > 0) {
                return new ResumeToken(Long.parseLong(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("'" + text + "' is not a resume token (<seqno>:<upper>, two decimal "
            + "numbers, as a subscription prints them)");
    }

    /**
     * Checks that {@code state} can continue from this token.
     *
     * @throws IllegalArgumentException naming the since if the upper is not above it, or if the token is ahead of the shard
     */
    public void requireReadable(ShardState state) {
        if (seqno > state.seqno() || upper > state.upper()) {
            throw new IllegalArgumentException("token " + this + " is ahead of shard " + state.shard() + " (seqno "
                + state.seqno() + ", upper " + state.upper() + "): is it another shard's or another app's token?");
        }
        if (state.since() > 0 && upper <= state.since()) {
            throw new IllegalArgumentException("token " + this + " is below the since of shard " + state.shard()
                + ", " + state.since() + ": compaction has advanced times below the since to it, so the updates "
                + "from the token's upper " + upper + " on can no longer be told apart from older ones; start over "
                + "as of a time at or above " + state.since());
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d:%d", seqno, upper);
    }
}
