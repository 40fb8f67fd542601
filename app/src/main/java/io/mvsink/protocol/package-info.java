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
 *      └─ report ─► appender (below)
 * </pre>
 *
 * <p>The appender (one per shard, {@link io.mvsink.protocol.Appender}; {@code topology.AppenderProcessor}
 * decodes the reports, does what it decides and persists it):
 * <pre>
 *   report ─► Appender.report ─► Reject (invalid or too old: garbage, counted) | Accept ─► pending
 *   report, tick ─► Appender.expired ─► Reject each pending batch that became too old
 *                ─► Appender.seal: SealCover.find from the upper ─► NoCover
 *                     ─► PartitionWatch.check (the probe, asked without blocking) ─► Wait | PartitionsChanged
 *                     ─► SealCover.firstStep ─► AppendFit.fit(diff: seqno + 1, lower = upper)
 *                          ─► Append (the adapter applies and sends it) | RejectInline (too large)
 *                     ─► Appender.next: the next step while a cover stands ─► sealed upper ─► tasks
 *   merge ─► Appender.merge ─► Compact (upper unchanged) | Conflict
 * </pre>
 *
 * <p>Invariants, each with the method that enforces it:
 * <ol>
 *   <li>One record of a partition's contribution progress: its {@code Participants.Position}
 *       (written only under the coalescer's lock: {@code Participants.handedOff}, {@code Participants.rewind},
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
 *       covered (DESIGN invariant 2: {@code SharedBuilder.answer} under the coalescer's lock); a
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
 *       the age bound, half the shard's recorded grace, taken as a value: {@code Appender.tooOld}, checked
 *       at the report, at every tick and again for every batch of an append, {@code Appender.step}).</li>
 *   <li>No consensus record exceeds the record bound (the consensus topic's {@code max.message.bytes}
 *       read at start and the producer's {@code max.request.size}, less headroom): every diff is sized
 *       before it is applied or sent; garbage that does not fit waits, the largest inline batches of a
 *       step too large are rejected and come back as copies, which are never inline, and a step too
 *       large without them is refused ({@code AppendFit.fit}, {@code SharedBuilder.mayInline});
 *       rollups over it are not written ({@code topology.AppenderProcessor#rollUp}).</li>
 *   <li>Uppers only advance, seqnos increase by one per append, and a batch whose contribution starts
 *       below the current upper is rejected and counted (DESIGN invariant 4): every append is one diff
 *       whose seqno is the shard's plus one and whose lower is the shard's upper ({@code Appender.diff}),
 *       a seal's upper is a cover's, above the upper ({@code SealCover.find}), and a stale batch is refused
 *       at its report ({@code Appender.invalid}) or passed over by a seal beyond it ({@code Appender.step}'s
 *       unusable batches); the ledger checks each diff as a reader will ({@code ShardState.apply}).</li>
 *   <li>The partition gate: nothing is sealed unless a probe asked while a cover from the current upper
 *       stood answered that the corrections topic has the shard's partition count; a failed or slow probe
 *       means wait, another count stops the app ({@code PartitionWatch.check}, {@code PartitionWatch.noCover},
 *       {@link io.mvsink.protocol.Appender#seal}).</li>
 *   <li>The seal size bound: every diff the appender sends fits the consensus record bound
 *       ({@link io.mvsink.protocol.RecordBound}); a step that does not fit loses its largest inline
 *       batches first, and one that cannot fit stops the app with what to raise ({@code AppendFit.fit},
 *       {@link io.mvsink.protocol.AppendTooLargeException}).</li>
 *   <li>Minting waits until the app first runs, so that the first ranges are contributed by every
 *       local task ({@link io.mvsink.protocol.MintingHold}).</li>
 * </ol>
 * One owner per piece of state: the coalescer keeps only what is JVM-wide ({@code Totals}) and
 * routes each call to its shard; a {@code LocalShard} owns its tasks, minter, deliveries and
 * builders; a {@code SharedBuilder} owns its participants ({@code Seat}s) and its {@code Work},
 * which it drains itself; a {@link io.mvsink.protocol.Handle} is a ticket without state.
 * Not thread-safe unless a class says otherwise: the coalescer's one lock guards every shard and
 * builder; a {@link io.mvsink.protocol.Contributor} runs on its task's stream thread.
 */
package io.mvsink.protocol;
