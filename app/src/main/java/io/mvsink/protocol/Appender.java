package io.mvsink.protocol;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.StateDiff;
import io.mvsink.consensus.ShardGrace;
import io.mvsink.consensus.ShardState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions of a shard's single writer, the appender: given a report, a tick or a finished
 * merge, it says what to do (reject this batch and why, append this diff, wait) and the adapter
 * ({@code topology.AppenderProcessor}) does it: it keeps the pending batches and the shard's state
 * in its store ({@link Ledger}), writes the consensus records and counts. Nothing here touches a
 * store, a producer or a clock: the time of each event is passed in.
 *
 * <pre>
 *   report ─► {@link #report}: Accept (keep pending) | Reject (never part of a cover: garbage)
 *   report, tick ─► {@link #expired}: the pending batches that became too old (Reject each)
 *                ─► {@link #seal}: NoCover | Wait (the partition gate) | PartitionsChanged (fatal)
 *                                | Append (the cover's first step) | RejectInline (the step is too large)
 *                   {@link #next}: after each Append or RejectInline, the next step while a cover stands
 *   merge ─► {@link #merge}: Append (a compaction: upper unchanged) | Conflict (its parts are garbage)
 * </pre>
 *
 * <p>What it enforces: a batch is valid (one contribution per partition of the shard, non-empty
 * ranges, none below the upper: {@link #invalid}); none is sealed whose parts may have been written
 * before the shard's grace allows ({@link #tooOld}, checked at the report, at every tick and again
 * for every batch an append holds); only an exact cover from the upper is appended
 * ({@link SealCover#find}), only after the partition gate answered that the topic still has the
 * shard's partitions ({@link PartitionWatch#check}); an append is one diff whose seqno is the
 * shard's plus one and whose lower is the shard's upper ({@link #diff}); and every diff fits the
 * consensus record bound ({@link AppendFit#fit}).
 */
public final class Appender {
    private final String shard;
    private final Ledger ledger;
    private final Settings settings;
    private final Grid grid;
    private final PartitionWatch partitions;

    /**
     * What the appender's store holds that its decisions read; the adapter changes it as the
     * decisions say, between one decision and the next.
     */
    public interface Ledger {
        /** Upper, seqno, since, partition count, location and the garbage not yet recorded. */
        AppenderState state();

        /** The reported batches not sealed yet, in the order they came. */
        Collection<Batch> pending();

        /** When the pending {@code batch}'s oldest part may have been written. */
        long writtenSince(Batch batch);

        /** The shard's grace record as last written, or null if it has none yet. */
        ShardGrace grace();

        /** The shard as the consensus topic will describe it after the appender's committed records. */
        ShardState model();
    }

    /**
     * @param graceMs this appender's blob GC grace (the age bound is half the shard's recorded grace)
     * @param sinceLagMs since follows upper minus this (on the grid); -1 keeps every time
     * @param intervalMs the width of the interval grid
     * @param recordBound the largest consensus record the appender may write
     */
    public record Settings(long graceMs, long sinceLagMs, long intervalMs, RecordBound recordBound) {
    }

    /** What to do with a report. */
    public sealed interface Verdict permits Accept, Reject {
    }

    /** Keep the batch as pending; {@code writtenSince}: when its oldest part may have been written. */
    public record Accept(Batch batch, long writtenSince) implements Verdict {
    }

    /** The batch can never be part of a cover: count a mismatch, its blobs are garbage. */
    public record Reject(Batch batch, String why) implements Verdict {
    }

    /** What to do about the cover from the current upper. */
    public sealed interface Step permits NoCover, Wait, PartitionsChanged, Append, RejectInline {
    }

    /** No cover from the current upper. */
    public record NoCover() implements Step {
    }

    /** A cover stands but the partition gate has no answer yet: seal at a later report or tick. */
    public record Wait() implements Step {
    }

    /** The corrections topic has {@code now} partitions, not the shard's {@code sealedOver}: stop. */
    public record PartitionsChanged(String topic, int sealedOver, int now) implements Step {
    }

    /**
     * Append {@code send}: it seals {@code cover} (remove its batches from pending); {@code unusable}
     * are pending batches the seal passes over (reject each: remove, count, their blobs are garbage,
     * already listed in the diff's garbage).
     *
     * @param lower the upper the append starts at
     * @param intervals the grid intervals it seals (the first append counts the empty prefix as one)
     * @param parts the parts of the cover's batches
     * @param closedAtMs when the newest batch of the cover closed (the seal latency runs from it)
     */
    public record Append(AppendFit.Send send, SealCover.Cover cover, List<Batch> unusable, long lower,
                         long intervals, int parts, long closedAtMs) implements Step {
    }

    /** Do not append: reject these inline batches (contributed again as blobs) and look for a cover again. */
    public record RejectInline(List<Batch> batches, String why) implements Step {
    }

    /** What to do with a finished merge. */
    public sealed interface Merge permits Compact, Conflict {
    }

    /** Append {@code send}: the merged batch replaces its batches, upper unchanged. */
    public record Compact(AppendFit.Send send) implements Merge {
    }

    /** The merge cannot be committed ({@code why}): its parts are garbage. */
    public record Conflict(String why) implements Merge {
    }

    public Appender(String shard, Ledger ledger, Settings settings, PartitionCountProbe probe) {
        this.shard = shard;
        this.ledger = ledger;
        this.settings = settings;
        this.grid = new Grid(settings.intervalMs());
        this.partitions = new PartitionWatch(probe);
    }

    /** Whether a reported {@code batch} (first part written at {@code firstWriteAtMs}; 0: none) is kept. */
    public Verdict report(Batch batch, long firstWriteAtMs, long now) {
        long since = writtenSince(batch.getClosedAtMs(), firstWriteAtMs);
        String why = invalid(batch, since, now);
        return why == null ? new Accept(batch, since) : new Reject(batch, why);
    }

    /**
     * The pending batches that became too old while they waited for the rest of a cover (a
     * partition lagging longer than the bound): they can never be sealed, their blobs are garbage,
     * and their contributors contribute again once the seal does not come.
     */
    public List<Reject> expired(long now) {
        List<Reject> expired = new ArrayList<>();
        for (Batch batch : ledger.pending()) {
            long since = ledger.writtenSince(batch);
            if (tooOld(since, now)) {
                expired.add(new Reject(batch, tooOldReason(batch, since, now)));
            }
        }
        return expired;
    }

    /**
     * The first step of the cover from the current upper, if there is one and the topic still has
     * the shard's partitions: one append per step of the cover (each step the batches that bring
     * every partition to one upper, e.g. one minted range), as many as the pending batches allow
     * ({@link #next}), on one probe answer asked while a cover stood (no cover drops an answer still
     * out: {@link PartitionWatch#noCover}).
     */
    public Step seal(long now) {
        Optional<SealCover.Cover> cover = cover();
        if (cover.isEmpty()) {
            partitions.noCover();
            return new NoCover();
        }
        PartitionWatch.Check check = partitions.check(ledger.state().getPartitionCount());
        if (check instanceof PartitionWatch.Changed changed) {
            return new PartitionsChanged(changed.topic(), changed.sealedOver(), changed.now());
        }
        if (check instanceof PartitionWatch.Closed) {
            return new Wait();
        }
        return step(cover.get(), now);
    }

    /** After an {@link Append} or {@link RejectInline} of this pass was done: the next step, if a cover still stands. */
    public Optional<Step> next(long now) {
        return cover().map(cover -> step(cover, now));
    }

    /** True if the last gate check could not verify the count yet: a cover waits for the next tick. */
    public boolean deferred() {
        return partitions.deferred();
    }

    /** Whether a finished merge of {@code replaced} into {@code merged} may be committed now. */
    public Merge merge(Batch merged, List<String> replaced, long now) {
        boolean live = replaced.stream().allMatch(id -> ledger.model().batch(id) != null);
        // a merge takes its closedAtMs before its first write
        if (!live || tooOld(merged.getClosedAtMs(), now)) {
            return new Conflict(live ? "too old" : "its batches changed meanwhile");
        }
        AppenderState state = ledger.state();
        AppendFit.Decision decision = AppendFit.fit(diff(state.getUpper(), state.getUpper(), List.of(merged),
            replaced, new ArrayList<>(state.getPendingGarbage()), state.getSince(), now), settings.recordBound());
        if (!(decision instanceof AppendFit.Send send)) {
            // a merge writes blob parts only: nothing of it can be left out
            throw new IllegalStateException("shard " + shard + ": merged batch " + merged.getBatchId()
                + " was refused by the record bound as inline data");
        }
        return new Compact(send);
    }

    /** The grace record in force at {@code now}: the shard's, or the change this appender's grace makes to it. */
    public ShardGrace grace(long now) {
        return ShardGrace.next(ledger.grace(), settings.graceMs(), now);
    }

    /**
     * Whether a batch that is rejected or passed over holds nothing that is not sealed: every one of its
     * contributions ends at or below {@code upper}. Such a batch is a copy, made by contributing again
     * (after a failed batch, a participant that left, or a stall), whose ranges another batch sealed
     * first: a mismatch that costs its blobs, with nothing to contribute again.
     */
    public static boolean redundant(Batch batch, long upper) {
        return !batch.getContributions().isEmpty()
            && batch.getContributions().stream().allMatch(c -> c.getUpper() <= upper);
    }

    /** When a batch's oldest part may have been written: the earlier of its first write (0: none) and its close. */
    public static long writtenSince(long closedAtMs, long firstWriteAtMs) {
        return firstWriteAtMs > 0 && (closedAtMs <= 0 || firstWriteAtMs < closedAtMs) ? firstWriteAtMs : closedAtMs;
    }

    private Optional<SealCover.Cover> cover() {
        AppenderState state = ledger.state();
        return SealCover.find(state.getUpper(), state.getPartitionCount(), ledger.pending());
    }

    /** Why a batch can never be part of a cover from the current upper, or null. */
    private String invalid(Batch batch, long writtenSince, long now) {
        AppenderState state = ledger.state();
        Set<Integer> seen = new HashSet<>();
        if (batch.getContributions().isEmpty()) {
            return "batch holds no contribution";
        }
        if (tooOld(writtenSince, now)) {
            return tooOldReason(batch, writtenSince, now);
        }
        for (Contribution c : batch.getContributions()) {
            if (c.getPartition() < 0 || c.getPartition() >= state.getPartitionCount() || !seen.add(c.getPartition())) {
                return "batch holds partition " + c.getPartition() + " twice or out of range";
            }
            if (c.getLower() >= c.getUpper()) {
                return "empty contribution range for partition " + c.getPartition();
            }
            if (c.getLower() < state.getUpper()) {
                return "stale: contribution of partition " + c.getPartition() + " starts at " + c.getLower()
                    + " below the shard's upper " + state.getUpper();
            }
        }
        return null;
    }

    /**
     * A batch whose parts may have been written more than half the GC grace ago may lose them to the
     * GC: it is never sealed (the GC's safety argument rests on this bound; {@link #step} checks it
     * again for every batch it seals). Its age runs from the earlier of its first part write and its
     * close: parts are written while a builder waits for more contributions, and a stalled builder can
     * close long after its first write.
     */
    private boolean tooOld(long writtenSince, long now) {
        return writtenSince > 0 && writtenSince < grace(now).oldestSealableMs(now);
    }

    private String tooOldReason(Batch batch, long writtenSince, long now) {
        ShardGrace grace = grace(now);
        return "parts written since " + writtenSince + " (closed at " + batch.getClosedAtMs() + "), before "
            + grace.oldestSealableMs(now) + " (half the shard's gc grace of " + grace.graceMs() + " ms ago, or its floor "
            + grace.floorMs() + " after a raise): its blobs may be collected";
    }

    /**
     * The append of the first step of {@code whole}, or, if its diff does not fit the record bound,
     * the inline batches that keep it out ({@link AppendFit}; the next search finds a cover without them).
     */
    private Step step(SealCover.Cover whole, long now) {
        AppenderState state = ledger.state();
        SealCover.Cover cover = SealCover.firstStep(whole, state.getUpper(), state.getPartitionCount());
        for (Batch batch : cover.batches()) {
            long since = ledger.writtenSince(batch);
            if (tooOld(since, now)) {
                // expired ran with the same clock: a cover holding such a batch is a defect
                throw new IllegalStateException("shard " + shard + ": refusing to seal batch "
                    + batch.getBatchId() + ": " + tooOldReason(batch, since, now));
            }
        }
        long lower = state.getUpper();
        Set<String> used = new HashSet<>();
        cover.batches().forEach(b -> used.add(b.getBatchId()));
        List<Batch> unusable = ledger.pending().stream().filter(b -> !used.contains(b.getBatchId())
            && b.getContributions().stream().anyMatch(c -> c.getLower() < cover.upper())).toList();
        List<String> garbage = new ArrayList<>(state.getPendingGarbage());
        unusable.forEach(b -> garbage.addAll(ShardState.blobKeys(b)));
        long since = settings.sinceLagMs() < 0 ? state.getSince() : Math.max(state.getSince(),
            grid.floor(Math.max(0, cover.upper() - Math.max(settings.sinceLagMs(), grid.width()))));
        AppendFit.Decision decision = AppendFit.fit(
            diff(lower, cover.upper(), cover.batches(), List.of(), garbage, since, now), settings.recordBound());
        if (decision instanceof AppendFit.Reject rejected) {
            return new RejectInline(rejected.batches(), rejected.why());
        }
        long closedAt = cover.batches().stream().mapToLong(Batch::getClosedAtMs).max().orElse(now);
        int parts = cover.batches().stream().mapToInt(b -> b.getParts().size()).sum();
        // the first append seals the empty prefix [0, first interval) too: count it as one
        long intervals = lower == 0 ? 1 : grid.intervals(lower, cover.upper());
        return new Append((AppendFit.Send) decision, cover, unusable, lower, intervals, parts, closedAt);
    }

    /** The compare-and-append record: the shard's next seqno, from {@code lower} (the upper, for a seal) to {@code upper}. */
    private StateDiff diff(long lower, long upper, List<Batch> added, List<String> removed, List<String> garbage,
                           long since, long now) {
        AppenderState state = ledger.state();
        return StateDiff.newBuilder()
            .setShard(shard).setSeqno(state.getSeqno() + 1).setLower(lower).setUpper(upper)
            .setPartitionCount(state.getPartitionCount()).setAdded(added)
            .setRemovedBatchIds(removed).setGarbageBlobs(garbage).setAppendedAtMs(now).setSince(since)
            .setLocation(state.getLocation()).build();
    }
}
