/**
 * The seal protocol's minting: which ranges a JVM's tasks of a shard contribute.
 *
 * <pre>
 *   task (per partition)          RangeMinter (per shard per JVM)          builders, appender
 *   ───────────────────           ──────────────────────────────           ──────────────────
 *   frontier closes intervals ──► next(lower, closed) ── mint when every ─► one builder per
 *                                   local task handed off the last range    minted range (barrier)
 *                                   and no builder of the shard is writing  ──► one batch ──► seal
 *   contributes exactly [lower, upper) of the minted range it stands in
 * </pre>
 *
 * <p>Invariants, each with where it is enforced:
 * <ol>
 *   <li>Every local task of a shard is handed the same minted ranges: a minted range is
 *       contiguous with the last and is never changed once minted ({@link io.mvsink.protocol.RangeMinter#next}).</li>
 *   <li>A range is minted only below every local task's closed frontier, so a task never waits
 *       on its own input to contribute a minted range ({@code RangeMinter.mint}).</li>
 *   <li>One range in flight per shard per JVM: the next is minted only when every local task has
 *       handed off the last one and no builder of the shard is open or writing
 *       ({@code SharedBatchRegistry.idle}, {@code RangeMinter.mint}).</li>
 *   <li>Ranges end at the coarsest grid point of their window, so the sequences of different
 *       JVMs keep meeting at common points where an exact cover exists
 *       ({@link io.mvsink.protocol.GridCuts#cut}).</li>
 *   <li>A range's buffered bytes stay near {@code range.target.bytes} unless it is one interval
 *       ({@code RangeMinter.mint}).</li>
 * </ol>
 * The rest of the seal protocol lives beside the code it guards: a batch's single owner in
 * {@code batch.SharedBatchRegistry#poll}, the exact cover in {@code topology.SealCover#find},
 * the GC's age bound in {@code topology.AppenderProcessor#seal}. Not thread-safe: the batch
 * registry calls the minter under its lock.
 */
package io.mvsink.protocol;
