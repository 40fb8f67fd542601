/**
 * The seal protocol of one JVM: which ranges its tasks contribute, how contributions of one range
 * become one shared batch, who reports a finished batch, when a task contributes again, and which
 * reported batches the appender may seal. The Kafka Streams processors ({@code topology}) are
 * adapters over it: they feed it the sealed upper, the closed frontier and the buffer, forward the
 * reports it hands them, and seal the covers it finds. Part writing is {@code batch}'s.
 *
 * <pre>
 *   task (per partition)         BatchCoalescer (per JVM: lock, pool, Totals) ─► LocalShard (per shard:
 *   ────────────────────         Participants, RangeMinter, Deliveries, its builders)
 *                                ─────────────────────────────────────────────────────────────────
 *   Contributor.contribute ────► nextRange: the minted range from the task's lower
 *                        ────► contribute: a Seat in the range's SharedBuilder (OPEN), a Handle back
 *                                 ─► CLOSED (barrier: every local task joined or passed)
 *                                 ─► SharedBuilder.drain on the builder pool writes its Work
 *                                 (batch.BatchWriter) ─► FINISHED
 *   Contributor.tick ── poll(Handle) ─► Report (one participant: DELIVERED) / Covered / Failed
 *      └─ report ─► appender: SealCover.find ─► one compare-and-append per cover ─► sealed upper
 * </pre>
 *
 * <p>Invariants, each with the method that enforces it:
 * <ol>
 *   <li>One record of a partition's contribution progress: its {@code Participants.Position}
 *       (written only under the registry's lock: {@code Participants.handedOff}, {@code Participants.rewind},
 *       {@code Participants.asked}); barriers, the minter and the task read it from there.</li>
 *   <li>Every local task of a shard is handed the same minted ranges: a minted range is
 *       contiguous with the last and never changes once minted ({@link io.mvsink.protocol.RangeMinter#next}).</li>
 *   <li>A range is minted only below every local task's closed frontier, so a task never waits
 *       on its own input to contribute a minted range ({@code RangeMinter.mint}).</li>
 *   <li>One range in flight per shard per JVM: the next is minted only when every local task has
 *       handed off the last one and no builder of the shard is open or writing
 *       ({@code LocalShard.idle}, {@code RangeMinter.mint}).</li>
 *   <li>Ranges end at the coarsest grid point of their window, so the sequences of different
 *       JVMs keep meeting at common points where an exact cover exists
 *       ({@link io.mvsink.protocol.GridCuts#cut}).</li>
 *   <li>A range's buffered bytes stay near {@code range.target.bytes} unless it is one interval
 *       ({@code RangeMinter.mint}).</li>
 *   <li>A batch holds at most one contribution per partition: a task contributing a range twice
 *       gets a builder of its own ({@code LocalShard.contribute}).</li>
 *   <li>A barrier closes only when no local task may still join it: every one joined, or handed
 *       off beyond its lower and was not told that a batch of its below failed
 *       ({@code Participants.mayStillJoin}, {@code LocalShard.closeSatisfiedBarriers}).</li>
 *   <li>A builder moves only along OPEN → CLOSED → FINISHED → DELIVERED | DROPPED, or OPEN | CLOSED
 *       → FAILED, and only by its own methods ({@code SharedBuilder.State.canBecome}, {@code SharedBuilder.become}).</li>
 *   <li>Exactly one participant of a finished batch is told to report it, everyone else that it is
 *       covered (DESIGN invariant 2: {@code SharedBuilder.answer} under the registry's lock); a
 *       batch dropped after some participant was told Covered counts as orphaned
 *       ({@code SharedBuilder.retire}, {@code LocalShard.retire}, {@link io.mvsink.protocol.BatchCoalescer#orphanedBatches}).</li>
 *   <li>A builder leaves its shard only when every participant is answered or abandoned, so nothing
 *       drops a batch a live participant waits for ({@code SharedBuilder.retire}).</li>
 *   <li>A copy of a range that may have been contributed before with other boundaries is cut at
 *       every grid point, so it fits any earlier batch in an exact cover ({@code Contributor.pieceEnd}).</li>
 *   <li>A task whose batch failed, one of whose batch's other participants left the JVM, or whose contribution waited
 *       {@code recontribute.timeout.ms} contributes again from there; nothing leaves its buffer
 *       before it is sealed, so it always can ({@code Contributor.tick}, {@code LocalShard.deregister}).</li>
 *   <li>The appender seals only an exact cover from the sealed upper, one batch per range and
 *       partition, none older than the GC's bound ({@link io.mvsink.protocol.SealCover#find};
 *       the age bound in {@code topology.AppenderProcessor#seal}).</li>
 *   <li>No consensus record exceeds the record bound (the consensus topic's {@code max.message.bytes}
 *       read at start and the producer's {@code max.request.size}, less headroom): every diff is sized
 *       before it is applied or sent; garbage that does not fit waits, the largest inline batches of a
 *       step too large are rejected and come back as copies, which are never inline, and a step too
 *       large without them is refused ({@code topology.AppendFit#fit}, {@code SharedBuilder.mayInline});
 *       rollups over it are not written ({@code topology.AppenderProcessor#rollUp}).</li>
 * </ol>
 * One owner per piece of state: the registry keeps only what is JVM-wide ({@code Totals}) and
 * routes each call to its shard; a {@code LocalShard} owns its tasks, minter, deliveries and
 * builders; a {@code SharedBuilder} owns its participants ({@code Seat}s) and its {@code Work},
 * which it drains itself; a {@link io.mvsink.protocol.Handle} is a ticket without state.
 * Not thread-safe unless a class says otherwise: the registry's one lock guards every shard and
 * builder; a {@link io.mvsink.protocol.Contributor} runs on its task's stream thread.
 */
package io.mvsink.protocol;
