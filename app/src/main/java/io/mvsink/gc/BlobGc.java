package io.mvsink.gc;

import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blob garbage collection of one shard: deletes the blobs under the shard's prefix, written by the
 * shard ({@link BlobStore#OWNER_METADATA}), that no state references (leaked by crashes, lost
 * races, re-contributions or compaction) once they are older than the grace period {@code g}:
 * the larger of this GC's own ({@code gc.grace.ms} or the command's {@code --grace-ms}) and the
 * grace the shard's appender recorded in the consensus topic ({@link ShardGrace}), read with
 * {@code S}. A shard with appends but no recorded grace (its appender runs an earlier version)
 * deletes nothing ({@link GcResult.Outcome#NO_GRACE}): the grace its appenders use is unknown.
 *
 * <h2>The rule</h2>
 * Against a state {@code S} of the shard whose reading began at {@code T0} (this GC's clock), a
 * listed blob {@code B} with last-modified time {@code m} is deleted at time {@code t} only if
 * <ol>
 *   <li>no live batch of {@code S} references {@code B};</li>
 *   <li>{@code S} does not record {@code B} retired at {@code r >= t - g};</li>
 *   <li>{@code m < t - g};</li>
 *   <li>{@code t - T0 <= g/4}: the state is fresh. Once it is not, the run stops deleting and
 *       reports {@link GcResult.Outcome#STALE_STATE} (the next run reads a fresh state);</li>
 *   <li>{@code S} has at least one append (see below), and {@code B}'s key starts with the prefix;</li>
 *   <li>{@code B}'s owner is this shard's, {@code <Kafka cluster id>/<consensus topic>/<shard>}
 *       ({@link BlobOwner}): only states of the consensus {@code S} is read from can reference
 *       {@code B} (see below). A blob without an owner, or with the shard's owner without the
 *       cluster ({@link BlobOwner#legacy()}), counts as this shard's only when the GC was told to
 *       {@link #claimUnowned() claim} them.</li>
 * </ol>
 *
 * <h2>Why nothing it deletes is opened again</h2>
 * Who could open {@code B} after {@code t}? A reader of a state in which {@code B} is live.
 * <ul>
 *   <li>{@code S} itself, or a state that still has {@code B} live since before {@code S}: ruled
 *       out by (1).</li>
 *   <li>A state after {@code S} in which {@code B} is live. Blob keys are unique per write attempt,
 *       so {@code B} is a part of one batch, added by one append {@code A} that {@code S} does not
 *       hold. {@code S} holds every append committed before the reader took the topic's end
 *       offsets (read_committed), which is after {@code T0}: so {@code A} committed after
 *       {@code T0}. The appender checked {@code A}'s batch at {@code c} with
 *       {@code c - closedAtMs <= g/2} (it never seals a batch closed more than {@code g/2} ago,
 *       merged batches of compaction included), and {@code c >= T0 - τ}, where {@code τ}
 *       bounds the time from that check to the commit of the appender's transaction (a transaction
 *       open longer than {@code transaction.timeout.ms}, 10 s under Kafka Streams' exactly-once,
 *       is aborted and never commits). (The bound is the shard's recorded grace's, not the
 *       appender's own config: {@link ShardGrace} shows that no record written after {@code S}
 *       lets an append after {@code T0} seal a batch older than {@code S}'s grace allows.)
 *       {@code B} was written at {@code m >= closedAtMs - δ},
 *       where {@code δ} is how long before its batch's {@code closedAtMs} a part can be written:
 *       at most 0 for parts written when a batch finishes and for merged parts (their
 *       {@code closedAtMs} is taken before the first write), at most the time a shared builder
 *       stays open for a part cut before its last contribution arrived. Hence
 *       {@code m >= T0 - τ - g/2 - δ}. But (3) and (4) give {@code m < t - g <= T0 - 3g/4}.
 *       Both hold only if {@code τ + δ > g/4}: as long as {@code τ + δ + ε <= g/4}, with
 *       {@code ε} the skew between the clocks of storage ({@code m}, listed to the second), the tasks
 *       ({@code closedAtMs}), the appender and this GC, no such {@code A} exists.</li>
 *   <li>A state before {@code S} in which {@code B} was live: a seal never removes a batch, so a
 *       compaction took {@code B} out and {@code S} records it retired at {@code r} (the appender
 *       keeps a retired blob in the state for at least {@code g}). By (2) {@code r < t - g}: a
 *       reader of such a state read it before the compaction committed, more than
 *       {@code g - τ} before {@code t}. Readers must open their parts within that.</li>
 * </ul>
 * Listing before or after the state read does not matter: a blob written after {@code T0} is
 * younger than {@code g} for as long as (4) lets this run delete.
 *
 * <h2>A state without appends deletes nothing</h2>
 * An empty state is what a wrong {@code application.id} or {@code consensus.topic} looks like:
 * the prefix holds a live shard's parts and the reader found no consensus for it. Deleting then
 * would wipe the shard, so the run reports {@link GcResult.Outcome#NO_APPENDS} and deletes
 * nothing. What a shard leaks before its first append is collected after it.
 *
 * <h2>Only its own blobs</h2>
 * The argument above covers the states of this shard's consensus. Another app (another
 * {@code application.id}, hence another consensus topic: a blue/green move, a staging copy) on
 * the same corrections topic and storage account writes under the same prefix, and so does the
 * same app on another Kafka cluster (staging and production, a DR pair: same topic names); their
 * live parts are unreferenced in {@code S}. So every blob mvsink writes carries the state that
 * may reference it as its owner, the Kafka cluster included, and (6) leaves every other owner's
 * blob alone (counted {@code foreign}), whatever the prefixes. Blobs written before owners
 * existed have none, and blobs written before owners named the cluster carry the legacy owner,
 * which the same app on another cluster wrote too: the app's own GC keeps both (counted
 * {@code unowned}), and only the {@code gc} command with {@code --claim-unowned}, run when no
 * other app or cluster writes under the prefix, collects them. During a rolling upgrade the
 * old instances' GC compares owners exactly, so it counts the new cluster owners as foreign.
 *
 * <p>Not thread-safe; one run at a time per instance. Runs by several processes at once are safe:
 * each deletion is decided by the rule above, and a blob another run deleted first is counted
 * missing.
 */
public final class BlobGc {
    private static final Logger LOG = LoggerFactory.getLogger(BlobGc.class);

    private final BlobStore blobs;
    private final String prefix;
    private final BlobOwner owner;
    private final boolean claimUnowned;
    private final long graceMs;
    private final Time time;

    /**
     * @param prefix the shard's blob prefix ({@code MvsinkConfig.blobPrefix()}); must not be empty
     * @param owner the shard's blob owner; only its blobs are deleted
     * @param graceMs {@code gc.grace.ms}: the least grace a run waits (the shard's recorded grace wins if larger)
     */
    public BlobGc(BlobStore blobs, String prefix, BlobOwner owner, long graceMs, Time time) {
        this(blobs, prefix, owner, false, graceMs, time);
    }

    private BlobGc(BlobStore blobs, String prefix, BlobOwner owner, boolean claimUnowned, long graceMs, Time time) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("blob gc needs a non-empty prefix: it would list the whole container");
        }
        if (owner == null) {
            throw new IllegalArgumentException("blob gc of " + prefix + " needs its owner: it deletes only its own blobs");
        }
        if (graceMs < 4) {
            throw new IllegalArgumentException("gc grace of " + graceMs + " ms: must be at least 4 ms");
        }
        this.blobs = blobs;
        this.prefix = prefix;
        this.owner = owner;
        this.claimUnowned = claimUnowned;
        this.graceMs = graceMs;
        this.time = time;
    }

    /**
     * This GC, also collecting blobs without an owner (written before owners existed) or with the
     * shard's owner without a cluster ({@link BlobOwner#legacy()}, written before owners named the
     * Kafka cluster) as the shard's own: only when no other app or cluster writes under the prefix.
     */
    public BlobGc claimUnowned() {
        return new BlobGc(blobs, prefix, owner, true, graceMs, time);
    }

    public String prefix() {
        return prefix;
    }

    public long graceMs() {
        return graceMs;
    }

    /** Takes the clock, then reads the state with {@code readState}, then collects against it. */
    public GcResult run(Supplier<ShardState> readState, boolean dryRun) {
        long readAtMs = time.milliseconds();
        return run(readState.get(), readAtMs, dryRun);
    }

    /**
     * Collects against {@code state}, whose reading began at {@code stateReadAtMs} (this GC's
     * clock, taken before the reader took the consensus topic's end offsets). In a dry run nothing
     * is deleted and the result lists what would have been.
     */
    public GcResult run(ShardState state, long stateReadAtMs, boolean dryRun) {
        Set<String> referenced = state.referencedBlobs();
        Map<String, Long> retired = state.retired();
        long grace = graceFor(state);
        List<BlobInfo> listed = blobs.list(prefix);
        long now = time.milliseconds();
        long cutoff = now - grace;
        int listedUnderPrefix = 0;
        int live = 0;
        int retiredKept = 0;
        int young = 0;
        int foreign = 0;
        int unowned = 0;
        List<BlobInfo> candidates = new ArrayList<>();
        for (BlobInfo blob : listed) {
            if (!blob.key().startsWith(prefix)) {
                LOG.warn("blob gc of {}: the store listed {} outside the prefix; not touched", prefix, blob.key());
                continue;
            }
            listedUnderPrefix++;
            Long retiredAt = retired.get(blob.key());
            if (referenced.contains(blob.key())) {
                live++;
            } else if (retiredAt != null && retiredAt >= cutoff) {
                retiredKept++;
            } else if (unattributed(blob) && !claimUnowned) {
                unowned++;
            } else if (!unattributed(blob) && !blob.owner().equals(owner.value())) {
                foreign++;
            } else if (blob.lastModified().toEpochMilli() >= cutoff) {
                young++;
            } else {
                candidates.add(blob);
            }
        }
        if (unowned > 0) {
            LOG.info("blob gc of {}: kept {} unreferenced blobs without an owner or with {} (written before owners "
                + "named the Kafka cluster; the gc command's --claim-unowned collects them)", prefix, unowned,
                owner.legacy());
        }
        GcResult.Tally tally = new GcResult.Tally(dryRun, grace, listedUnderPrefix, live, retiredKept, foreign, unowned, young,
            candidates.size());
        if (state.seqno() == 0) {
            return tally.finish(List.of(), 0, 0, GcResult.Outcome.NO_APPENDS);
        }
        if (state.grace().isEmpty()) {
            return tally.finish(List.of(), 0, 0, GcResult.Outcome.NO_GRACE);
        }
        return collect(tally, candidates, stateReadAtMs, grace, dryRun);
    }

    /**
     * A blob that may be this shard's but cannot be attributed to it: no owner (written before
     * owners), or the shard's owner without a cluster (written before owners named the cluster;
     * the same app on another cluster wrote the same).
     */
    private boolean unattributed(BlobInfo blob) {
        return blob.owner() == null || blob.owner().equals(owner.legacy());
    }

    /**
     * The grace a run against {@code state} waits: this GC's own, or the one the shard's appender
     * recorded if that is larger (its appenders seal batches up to half of it old, whatever this
     * process was configured with).
     */
    private long graceFor(ShardState state) {
        long recorded = state.grace().map(g -> g.graceMs()).orElse(0L);
        if (recorded > graceMs) {
            LOG.info("blob gc of {}: the shard's recorded grace {} ms is above this gc's {} ms; waiting {} ms",
                prefix, recorded, graceMs, recorded);
        }
        return Math.max(graceMs, recorded);
    }

    private GcResult collect(GcResult.Tally tally, List<BlobInfo> candidates, long stateReadAtMs, long grace,
                             boolean dryRun) {
        List<String> deleted = new ArrayList<>();
        long bytes = 0;
        int missing = 0;
        for (BlobInfo blob : candidates) {
            if (Thread.currentThread().isInterrupted()) {
                return tally.finish(deleted, bytes, missing, GcResult.Outcome.INTERRUPTED);
            }
            if (time.milliseconds() - stateReadAtMs > grace / 4) {
                return tally.finish(deleted, bytes, missing, GcResult.Outcome.STALE_STATE);
            }
            if (dryRun || blobs.delete(blob.key())) {
                LOG.debug("blob gc of {}: {} {} ({} bytes, last modified {})", prefix,
                    dryRun ? "would delete" : "deleted", blob.key(), blob.size(), blob.lastModified());
                deleted.add(blob.key());
                bytes += blob.size();
            } else {
                missing++;
            }
        }
        return tally.finish(deleted, bytes, missing, GcResult.Outcome.COMPLETE);
    }
}
