package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.avro.RetiredBlob;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.time.TimeRange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A shard's state as the consensus topic describes it: its upper, its since, the last seqno,
 * the live batches, and the blobs compaction retired (readers of an earlier state may still
 * open them). Built from the latest rollup (if any) by applying the later diffs in seqno order;
 * a gap, a diff that does not continue at the current upper, an inexact cover or a compaction
 * that does not replace an exact cover by an exact cover is a corrupted topic and fails loudly.
 */
public final class ShardState {
    private final String shard;
    private long upper;
    private long seqno;
    private long since;
    private int partitionCount;
    private String location = "";
    private ShardGrace grace;
    private final Map<String, Batch> batches = new LinkedHashMap<>();
    private final Map<String, Long> retired = new LinkedHashMap<>();

    public ShardState(String shard) {
        this.shard = shard;
    }

    /** The state a rollup records. */
    public static ShardState of(StateRollup rollup) {
        ShardState state = new ShardState(rollup.getShard());
        state.upper = rollup.getUpper();
        state.seqno = rollup.getSeqno();
        state.since = rollup.getSince();
        state.partitionCount = rollup.getPartitionCount();
        state.location = rollup.getLocation();
        rollup.getBatches().forEach(b -> state.batches.put(b.getBatchId(), b));
        rollup.getRetired().forEach(r -> state.retired.put(r.getKey(), r.getRetiredAtMs()));
        return state;
    }

    /** A compaction replaces batches without sealing anything: its upper equals its lower. */
    public static boolean isCompaction(StateDiff diff) {
        return diff.getUpper() == diff.getLower();
    }

    public void apply(StateDiff diff) {
        if (diff.getSeqno() != seqno + 1 || diff.getLower() != upper || diff.getUpper() < diff.getLower()
            || (diff.getUpper() == diff.getLower() && seqno == 0)) {
            throw corrupt(diff, "does not follow seqno " + seqno + " at upper " + upper);
        }
        if (diff.getPartitionCount() < 1 || (seqno > 0 && diff.getPartitionCount() != partitionCount)) {
            throw corrupt(diff, "claims " + diff.getPartitionCount() + " partitions; the shard has "
                + (seqno > 0 ? partitionCount : "none yet") + " and a shard's partition count never changes");
        }
        if (diff.getSince() > diff.getUpper() || (diff.getSince() != 0 && diff.getSince() < since)) {
            throw corrupt(diff, "moves since from " + since + " to " + diff.getSince());
        }
        if (!diff.getLocation().isEmpty() && !location.isEmpty() && !diff.getLocation().equals(location)) {
            throw corrupt(diff, "puts its parts at " + diff.getLocation() + "; the shard's parts live at " + location
                + " and a shard's parts never move");
        }
        List<String> problems = CoverCheck.problems(diff);
        if (!problems.isEmpty()) {
            throw corrupt(diff, "is not an exact cover: " + problems);
        }
        if (isCompaction(diff)) {
            replace(diff);
        } else {
            diff.getRemovedBatchIds().forEach(batches::remove);
        }
        for (Batch batch : diff.getAdded()) {
            batches.put(batch.getBatchId(), batch);
        }
        seqno = diff.getSeqno();
        upper = diff.getUpper();
        since = Math.max(since, diff.getSince());
        partitionCount = diff.getPartitionCount();
        if (!diff.getLocation().isEmpty()) {
            location = diff.getLocation();
        }
    }

    /** A compaction's removed batches must be live and tile exactly the range its batch tiles. */
    private void replace(StateDiff diff) {
        List<Batch> removed = new ArrayList<>();
        for (String id : diff.getRemovedBatchIds()) {
            Batch batch = batches.get(id);
            if (batch == null) {
                throw corrupt(diff, "removes batch " + id + ", which is not live");
            }
            removed.add(batch);
        }
        TimeRange range = CoverCheck.range(removed);
        List<String> problems = CoverCheck.problems(partitionCount, range.lower(), range.upper(), removed);
        TimeRange added = CoverCheck.range(diff.getAdded());
        if (!problems.isEmpty() || !added.equals(range)) {
            throw corrupt(diff, "replaces batches over " + range + " by " + added + ": " + problems);
        }
        for (Batch batch : removed) {
            batches.remove(batch.getBatchId());
            blobKeys(batch).forEach(key -> retired.put(key, diff.getAppendedAtMs()));
        }
    }

    private ConsensusCorruptException corrupt(StateDiff diff, String what) {
        return new ConsensusCorruptException("shard " + shard + ": diff seqno " + diff.getSeqno() + " ["
            + diff.getLower() + ", " + diff.getUpper() + ") " + what);
    }

    /** The rollup of this state, keeping the retired blobs retired at or after {@code retiredSinceMs}. */
    public StateRollup rollup(long nowMs, long retiredSinceMs) {
        List<RetiredBlob> kept = new ArrayList<>();
        retired.forEach((key, at) -> {
            if (at >= retiredSinceMs) {
                kept.add(new RetiredBlob(key, at));
            }
        });
        return StateRollup.newBuilder().setShard(shard).setSeqno(seqno).setUpper(upper).setSince(since)
            .setPartitionCount(partitionCount).setBatches(new ArrayList<>(batches.values())).setRetired(kept)
            .setRolledUpAtMs(nowMs).setLocation(location).build();
    }

    /** Forgets retired blobs retired before {@code retiredSinceMs} (they are plain garbage now). */
    public void forgetRetiredBefore(long retiredSinceMs) {
        retired.values().removeIf(at -> at < retiredSinceMs);
    }

    public String shard() {
        return shard;
    }

    public long upper() {
        return upper;
    }

    public long seqno() {
        return seqno;
    }

    /** Snapshots read any time at or above since (times below it may have been advanced to it). */
    public long since() {
        return since;
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** Where the shard's parts live ({@code <storage account>/<container>}); "" if no append recorded it. */
    /** The blob GC's grace the shard's appender recorded ({@link ShardGrace}); empty before its first record. */
    public Optional<ShardGrace> grace() {
        return Optional.ofNullable(grace);
    }

    /** Takes the shard's grace record as read from the consensus topic next to its diffs. */
    public void recordGrace(ShardGrace recorded) {
        this.grace = recorded;
    }

    public String location() {
        return location;
    }

    public Collection<Batch> batches() {
        return Collections.unmodifiableCollection(batches.values());
    }

    public Batch batch(String batchId) {
        return batches.get(batchId);
    }

    /** The blob keys of every live batch's parts (inline parts have none). */
    public Set<String> referencedBlobs() {
        Set<String> keys = new HashSet<>();
        for (Batch batch : batches.values()) {
            keys.addAll(blobKeys(batch));
        }
        return keys;
    }

    /** The blob keys of a batch's parts, leaving out its inline parts (they are no blobs). */
    public static List<String> blobKeys(Batch batch) {
        List<String> keys = new ArrayList<>(batch.getParts().size());
        for (Part part : batch.getParts()) {
            if (part.getInline() == null) {
                keys.add(part.getKey());
            }
        }
        return keys;
    }

    /** The bytes of the live batches' inline parts: data this state holds in consensus itself. */
    public long inlineBytes() {
        long total = 0;
        for (Batch batch : batches.values()) {
            total += inlineBytes(batch);
        }
        return total;
    }

    /** The bytes of a batch's inline parts. */
    public static long inlineBytes(Batch batch) {
        long total = 0;
        for (Part part : batch.getParts()) {
            if (part.getInline() != null) {
                total += part.getInline().remaining();
            }
        }
        return total;
    }

    /** Blobs compaction took out of the state, with when (wall clock ms); unmodifiable. */
    public Map<String, Long> retired() {
        return Collections.unmodifiableMap(retired);
    }
}
