package io.mvsink.read;

import io.mvsink.consensus.ShardState;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a subscription stands: it has delivered every update with {@code time < upper} of shard
 * {@code shard} on consensus topic {@code consensusTopic}, as the shard's state at append
 * {@code seqno} holds them. Printed as {@code <consensus topic>/<shard>/<seqno>:<upper>}, e.g.
 * {@code orders-app-consensus/orders/812:1733280001000}: one line of letters, digits and
 * {@code . _ - / : %}, safe on a command line unquoted (a name's other characters are
 * percent-encoded, UTF-8). {@link #start} ({@code …/0:0}) stands before the first append.
 *
 * <p>A token resumes only the shard that printed it ({@link #requireReadable}): the updates after
 * {@code upper} of another shard, or of the same shard name in another app's consensus topic, are
 * not the rest of what was delivered.
 *
 * <p>A resume from a token reads the updates with {@code upper <= time} from whatever batches the
 * shard holds then: compaction may have merged or rewritten the batches that held them, but keeps
 * their times, except that it advances times below the shard's since to the since. So a token is
 * readable only while its upper is above the since: at or below it, an older update advanced to
 * the since could not be told apart from a newer one.
 */
public record ResumeToken(String consensusTopic, String shard, long seqno, long upper) {
    private static final Pattern PRINTED = Pattern.compile("([A-Za-z0-9._%-]+)/([A-Za-z0-9._%-]+)/(\\d{1,19}):(\\d{1,19})");
    private static final Pattern UNNAMED = Pattern.compile("\\d+:\\d+");

    public ResumeToken {
        if (consensusTopic.isEmpty() || shard.isEmpty()) {
            throw new IllegalArgumentException("a token names its consensus topic and shard: '" + consensusTopic
                + "', '" + shard + "'");
        }
        if (seqno < 0 || upper < 0) {
            throw new IllegalArgumentException("a token's seqno and upper are not negative: " + seqno + ":" + upper);
        }
    }

    /** Before the first append of {@code shard} on {@code consensusTopic}: a resume from it delivers every update. */
    public static ResumeToken start(String consensusTopic, String shard) {
        return new ResumeToken(consensusTopic, shard, 0, 0);
    }

    /** The token of the same shard after the append at {@code seqno}, every update below {@code upper} delivered. */
    public ResumeToken at(long seqno, long upper) {
        return new ResumeToken(consensusTopic, shard, seqno, upper);
    }

    /**
     * The token that {@link #toString()} printed.
     *
     * @throws IllegalArgumentException naming the text if it is not a token, or is one of an older
     *     mvsink ({@code <seqno>:<upper>}, which names no shard)
     */
    public static ResumeToken parse(String text) {
        if (UNNAMED.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is a resume token of an older mvsink (<seqno>:<upper>), "
                + "which does not name its shard, so it cannot be checked against the shard it would resume: "
                + "start over from a snapshot (as of a time at or above the shard's since), whose tokens name the shard");
        }
        Matcher m = PRINTED.matcher(text);
        try {
            if (m.matches()) {
                return new ResumeToken(decode(m.group(1)), decode(m.group(2)), Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)));
            }
        } catch (IllegalArgumentException e) {
            // a malformed %-escape or a number out of range: below
        }
        throw new IllegalArgumentException("'" + text + "' is not a resume token (<consensus topic>/<shard>/<seqno>:"
            + "<upper>, as a subscription prints them)");
    }

    /**
     * Checks that {@code state}, the shard followed on {@code consensusTopic}, can continue from this token.
     *
     * @throws IllegalArgumentException if the token is another shard's or another consensus topic's, if
     *     it is ahead of the shard, or (naming the since) if its upper is not above the since
     */
    public void requireReadable(String consensusTopic, ShardState state) {
        if (!this.consensusTopic.equals(consensusTopic) || !shard.equals(state.shard())) {
            throw new IllegalArgumentException("token " + this + " is of shard " + shard + " on consensus topic "
                + this.consensusTopic + ", not of shard " + state.shard() + " on consensus topic " + consensusTopic
                + ": a token resumes only the shard that printed it");
        }
        if (seqno > state.seqno() || upper > state.upper()) {
            throw new IllegalArgumentException("token " + this + " is ahead of shard " + state.shard() + " (seqno "
                + state.seqno() + ", upper " + state.upper() + "): consensus topic " + consensusTopic + " holds less "
                + "of the shard than when the token was printed (is it another cluster's topic of that name, or was "
                + "the topic deleted and created again?)");
        }
        requireAboveSince("token " + this, upper, state);
    }

    /**
     * Checks that the updates from {@code lower} on are readable: {@code lower} is above the since
     * (or the since is 0), so no update below it was advanced into the range.
     *
     * @throws IllegalArgumentException naming {@code what} and the since otherwise
     */
    static void requireAboveSince(String what, long lower, ShardState state) {
        if (state.since() > 0 && lower <= state.since()) {
            throw new IllegalArgumentException(what + " is below the since of shard " + state.shard()
                + ", " + state.since() + ": compaction has advanced times below the since to it, so the updates "
                + "from " + lower + " on can no longer be told apart from older ones; start over "
                + "as of a time at or above " + state.since());
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s/%s/%d:%d", encode(consensusTopic), encode(shard), seqno, upper);
    }

    /** Letters, digits, '.', '_' and '-' as they are (every topic name); any other UTF-8 byte as %XX. */
    private static String encode(String name) {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || ".-_".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append(String.format(Locale.ROOT, "%%%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** The name {@link #encode} printed (the printed form has no '+', which URLDecoder would read as a space). */
    private static String decode(String printed) {
        return URLDecoder.decode(printed, StandardCharsets.UTF_8);
    }
}
