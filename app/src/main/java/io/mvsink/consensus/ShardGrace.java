package io.mvsink.consensus;

import io.mvsink.avro.GraceRecord;

/**
 * The blob GC's grace as a fact of the shard, not of one process's config (DESIGN invariant 10:
 * an age bound safety relies on is enforced where it is assumed). The shard's appender records it
 * in the consensus topic ({@link ConsensusKeys#grace}) in the transaction of an append whenever it
 * changes; every GC of the shard, in an app or the {@code gc} command, waits at least
 * {@link #graceMs()} of the grace it read with the state, and the appender seals no batch whose
 * parts may have been written before {@link #oldestSealableMs(long)}.
 *
 * <h2>Why a GC holding an older record is still safe</h2>
 * A GC reads the record {@code G} with its state at {@code T0} and deletes only until
 * {@code T0 + G.grace/4}, blobs older than {@code G.grace}. Its argument (see {@code BlobGc}) needs
 * every append committed after {@code T0} to refuse batches older than {@code T0 - G.grace/2}
 * (minus the transaction and clock budget). {@code B(c) = oldestSealableMs(c)} of the record in
 * force at {@code c} never falls below that:
 * <ul>
 *   <li>between changes {@code B} only grows with {@code c};</li>
 *   <li>a lowering (to {@code g' < g}) at {@code c >= T0}: {@code c - g'/2 > T0 - g/2}, and the floor
 *       is kept;</li>
 *   <li>a raise (to {@code g' > g}) at {@code c}: the new floor is at least {@code c - g/2}, the
 *       old record's bound at the moment of the raise, so no batch refused under {@code g} ever
 *       becomes sealable again: a GC of the smaller grace may already have collected its parts.</li>
 * </ul>
 * So a lowered grace takes effect at once (batches older than the new bound are no longer sealed:
 * their contributors contribute again, so a GC of the new grace may collect their parts), and a
 * raised one only for batches written after it was recorded.
 *
 * @param graceMs the grace in force, {@code gc.grace.ms} of the appender that recorded it
 * @param floorMs no batch whose parts may have been written before it is ever sealed (0: none)
 * @param recordedAtMs when the appender recorded it (its clock)
 */
public record ShardGrace(long graceMs, long floorMs, long recordedAtMs) {

    public ShardGrace {
        if (graceMs < 4 || floorMs < 0) {
            throw new IllegalArgumentException("grace of " + graceMs + " ms with floor " + floorMs
                + ": the grace must be at least 4 ms and the floor not negative");
        }
    }

    /**
     * The earliest time at which a batch's oldest part may have been written for an append at
     * {@code nowMs} to seal it: half the grace back, and never before the floor.
     */
    public long oldestSealableMs(long nowMs) {
        return Math.max(nowMs - graceMs / 2, floorMs);
    }

    /**
     * The record an appender configured with {@code ownGraceMs} keeps in force at {@code nowMs}:
     * {@code recorded} itself when the grace is the same, else the changed record to write with
     * its next append (first record: no floor; a lowering keeps the floor; a raise lifts the floor
     * to the recorded grace's bound at {@code nowMs}).
     *
     * @param recorded the shard's current record, or null if it has none yet
     */
    public static ShardGrace next(ShardGrace recorded, long ownGraceMs, long nowMs) {
        if (recorded == null) {
            return new ShardGrace(ownGraceMs, 0, nowMs);
        }
        if (ownGraceMs == recorded.graceMs) {
            return recorded;
        }
        long floor = ownGraceMs < recorded.graceMs ? recorded.floorMs
            : Math.max(recorded.floorMs, recorded.oldestSealableMs(nowMs));
        return new ShardGrace(ownGraceMs, floor, nowMs);
    }

    /** The stored record of {@code shard}'s grace. */
    public GraceRecord toRecord(String shard) {
        return new GraceRecord(shard, graceMs, floorMs, recordedAtMs);
    }

    /** The grace a stored record says. */
    public static ShardGrace of(GraceRecord record) {
        return new ShardGrace(record.getGraceMs(), record.getFloorMs(), record.getRecordedAtMs());
    }
}
