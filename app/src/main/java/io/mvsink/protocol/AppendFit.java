package io.mvsink.protocol;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Fits an append into the consensus topic's {@link RecordBound} before it is sent: a record over the
 * bound would fail the appender's transaction with {@code RecordTooLargeException} on every instance
 * the task moves to. Decides, without sending anything:
 * <ul>
 *   <li>a diff that fits is sent as it is;</li>
 *   <li>garbage blob keys that do not fit are left for later appends (the longest prefix that fits is
 *       carried; the rest stays pending in the appender's state);</li>
 *   <li>a diff that is too large without its garbage is too large because of inline data (the inline
 *       limit per batch keeps a step of one batch per partition within half the bound, but a step can
 *       hold many batches of a partition): its largest inline batches are rejected until it fits.
 *       Rejected like a stale batch, their contributors contribute them again, as copies, which are
 *       never inline ({@code BatchCoalescer.contribute}), so the next step holds their blob parts;</li>
 *   <li>a diff too large without garbage and inline data cannot be split (a step is the shortest cover
 *       from the upper): {@link AppendTooLargeException}, naming what to raise.</li>
 * </ul>
 */
public final class AppendFit {
    private AppendFit() {
    }

    /** What to do with an append. */
    public sealed interface Decision permits Send, Reject {
    }

    /**
     * Send {@code diff} (encoded: {@code value}); its garbage may be a prefix of the garbage offered.
     */
    public record Send(StateDiff diff, byte[] value) implements Decision {
    }

    /** Do not send: reject these inline batches of the step (contributed again as blobs), then look for a cover again. */
    public record Reject(List<Batch> batches, String why) implements Decision {
    }

    /**
     * Fits {@code diff} into {@code bound}.
     *
     * @throws AppendTooLargeException if it cannot fit without its garbage and inline batches
     */
    static Decision fit(StateDiff diff, RecordBound bound) {
        byte[] value = Codecs.STATE_DIFF.encode(diff);
        if (bound.fits(value.length)) {
            return new Send(diff, value);
        }
        List<String> garbage = diff.getGarbageBlobs();
        StateDiff bare = withGarbage(diff, List.of());
        byte[] bareValue = Codecs.STATE_DIFF.encode(bare);
        if (bound.fits(bareValue.length)) {
            return carryingGarbage(diff, garbage, bound, bare, bareValue);
        }
        List<Batch> inline = new ArrayList<>(bare.getAdded().stream().filter(b -> ShardState.inlineBytes(b) > 0).toList());
        inline.sort(Comparator.comparingLong((Batch b) -> ShardState.inlineBytes(b)).reversed());
        List<Batch> kept = new ArrayList<>(bare.getAdded());
        List<Batch> rejected = new ArrayList<>();
        int size = bareValue.length;
        for (Batch batch : inline) {
            rejected.add(batch);
            kept.remove(batch);
            size = Codecs.STATE_DIFF.encode(StateDiff.newBuilder(bare).setAdded(kept).build()).length;
            if (bound.fits(size)) {
                return new Reject(rejected, "the append of [" + diff.getLower() + ", " + diff.getUpper() + ") would be "
                    + value.length + " bytes, over the consensus record bound of " + bound.bytes()
                    + " bytes: its largest inline batches are kept out and contributed again as blobs");
            }
        }
        throw new AppendTooLargeException("shard " + diff.getShard() + ": the append of [" + diff.getLower() + ", "
            + diff.getUpper() + ") with " + diff.getAdded().size() + " batches is " + size + " bytes without inline data "
            + "and garbage, over the consensus record bound of " + bound.bytes() + " bytes (the smaller of the consensus "
            + "topic's max.message.bytes and the producer's max.request.size, less " + RecordBound.HEADROOM
            + "): raise both (topic config max.message.bytes, option streams.producer.max.request.size)");
    }

    /** {@code diff} with the longest prefix of {@code garbage} that fits (binary search over its length). */
    private static Send carryingGarbage(StateDiff diff, List<String> garbage, RecordBound bound, StateDiff bare,
                                        byte[] bareValue) {
        int fits = 0;
        int over = garbage.size();
        Send best = new Send(bare, bareValue);
        while (over - fits > 1) {
            int mid = (fits + over) >>> 1;
            StateDiff candidate = withGarbage(diff, garbage.subList(0, mid));
            byte[] value = Codecs.STATE_DIFF.encode(candidate);
            if (bound.fits(value.length)) {
                fits = mid;
                best = new Send(candidate, value);
            } else {
                over = mid;
            }
        }
        return best;
    }

    private static StateDiff withGarbage(StateDiff diff, List<String> garbage) {
        return StateDiff.newBuilder(diff).setGarbageBlobs(new ArrayList<>(garbage)).build();
    }
}
