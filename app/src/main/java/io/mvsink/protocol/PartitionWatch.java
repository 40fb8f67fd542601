package io.mvsink.protocol;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The appender's check before every seal that the corrections topic still has the shard's
 * partition count: an exact cover of the shard's partitions says nothing about a partition added
 * since, and sealing its times would lose its updates for every reader.
 *
 * <p>Three answers: the count is the shard's (seal); it changed ({@link Changed}: the adapter
 * stops the app, {@code topology.PartitionCountChangedException}; nothing is sealed or trimmed past
 * the added partitions); or the probe failed or timed out: cannot verify, so no seal now, and the cover is
 * tried again at the next report or punctuation ({@link #deferred()}). Never a silent pass.
 *
 * <p>The probe does not block the appender's stream thread (which may also run a corrections task,
 * and whose transaction holds what the other tasks wait for): a cover finds a probe asked, and is
 * sealed at the first report or punctuation after its answer. One answer serves the seals made
 * when it arrives, those of reports that came while it was asked included: a partition added after
 * the probe was asked is missed by them as it would be by a probe asked for each (the window is
 * from asking to the appends' commit either way), but a backlog's burst of reports costs one round
 * trip, not one each on the stream thread (the catch-up bench's appender lagged its reports by
 * seconds with one blocking probe per seal). Every later seal asks again.
 *
 * <p>An answer serves only the cover it was asked for: one asked before a cover formed says
 * nothing of partitions added between its ask and that cover. The appender tells the watch each
 * time it finds no cover ({@link #noCover}); an ask still out then is dropped with its cover (a
 * cover emptied by expiry while the probe was asked would otherwise leave its answer to the next
 * cover, minutes later), and the next cover asks afresh. So the answer a seal uses was asked while
 * a cover from the current upper stood at every check since.
 */
final class PartitionWatch {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionWatch.class);

    private final PartitionCountProbe probe;
    private CompletableFuture<Integer> asked;
    private boolean deferred;

    PartitionWatch(PartitionCountProbe probe) {
        this.probe = probe;
    }

    /** The answer of a check before seals. */
    sealed interface Check permits Open, Closed, Changed {
    }

    /** The topic has the shard's partitions: the caller may make its seals now (the answer is used up). */
    record Open() implements Check {
    }

    /** No answer yet (a probe is asked, or failed): nothing may be sealed now. */
    record Closed() implements Check {
    }

    /** The topic has {@code now} partitions, not the shard's {@code sealedOver}: fatal. */
    record Changed(String topic, int sealedOver, int now) implements Check {
    }

    /**
     * Whether a probe asked since the last seals answered that the topic has exactly
     * {@code sealedOver} partitions ({@link Open}: the caller may make its seals now, in this call),
     * has no such answer yet ({@link Closed}), or answered another count ({@link Changed}).
     */
    Check check(int sealedOver) {
        if (asked == null) {
            asked = probe.partitionsAsync();
        }
        if (!asked.isDone()) {
            deferred = true;
            return new Closed();
        }
        int now;
        try {
            now = asked.join();
        } catch (CompletionException | CancellationException e) {
            asked = null;
            deferred = true;
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            LOG.warn("cannot verify the partition count of {} before a seal, not sealing now: {}", probe.topic(),
                cause.toString());
            return new Closed();
        }
        asked = null;
        if (now != sealedOver) {
            return new Changed(probe.topic(), sealedOver, now);
        }
        deferred = false;
        return new Open();
    }

    /**
     * There is no cover from the current upper now: the ask out, if any, was for a cover that is
     * gone, and its answer (which predates every later cover) is not used; nothing waits for a check.
     */
    void noCover() {
        asked = null;
        deferred = false;
    }

    /** True if the last check could not verify the count yet (a cover is waiting for the next one). */
    boolean deferred() {
        return deferred;
    }
}
