package io.mvsink.topology;

import io.mvsink.registry.SchemaRegistry;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.utils.Time;

/**
 * Decides whether rows written with a schema id belong to the shard, and the largest such row.
 *
 * <p><b>Replay gives the same fate.</b> A contribution must be a deterministic function of the
 * partition's input: a shared batch may carry a contribution of a transaction that then aborts,
 * and be sealed all the same, so when the task processes those records again each must meet
 * the fate it met before (DESIGN invariant 3), or it ends both sealed and dead-lettered, or
 * refused first and then accepted below the sealed upper, where it is trimmed: lost. A decision
 * taken in the aborted transaction is rolled back with the task's stores, so it cannot merely
 * be remembered; it has to come out the same when taken again. Hence the rule:
 * <ol>
 *   <li>A writer schema id is accepted iff the registry has it as a version of the shard's
 *       subject ({@link SchemaRegistry#isVersionOf}). That is a fact that never turns false once
 *       true (ids and versions are immutable), unlike "the latest version can read it", which a
 *       new version can change between an attempt and its replay. An acceptance is therefore
 *       final and replays the same. Readability by the latest version is the subject's
 *       compatibility level's job (see docs/ARCHITECTURE.md, schema evolution).</li>
 *   <li>A refusal is not final: the id may be registered under the subject later, and is asked
 *       again after {@code recheckMs}. It is the one fate a replay can change, and only if the
 *       very schema is registered under the subject between the aborted attempt and its replay.</li>
 *   <li>{@code max.row.bytes}: the limit in force when a task first accepts an id is recorded
 *       with it ({@link AcceptedSchemas}, changelogged) and judges that id's rows from then on,
 *       so a limit changed at a restart applies to ids accepted afterwards, never to records a
 *       previous attempt may have contributed. (An id first accepted in the aborted transaction
 *       itself is judged by the limit of the replay.)</li>
 * </ol>
 * One per task (in its {@link InputDecoder}); a registry that cannot be reached is not bad input:
 * its exception propagates.
 */
final class SchemaGate {
    private final SchemaRegistry registry;
    private final String subject;
    private final int maxRowBytes;
    private final AcceptedSchemas accepted;
    private final Time time;
    private final long recheckMs;
    private final Map<Integer, Long> refusedAtMs = new ConcurrentHashMap<>();

    /** Rows of the id are refused ({@code refusal} not null) or accepted up to {@code maxRowBytes}. */
    record Decision(String refusal, int maxRowBytes) {
    }

    SchemaGate(SchemaRegistry registry, String subject, int maxRowBytes, AcceptedSchemas accepted, Time time,
               long recheckMs) {
        this.registry = registry;
        this.subject = subject;
        this.maxRowBytes = maxRowBytes;
        this.accepted = accepted;
        this.time = time;
        this.recheckMs = recheckMs;
    }

    Decision decide(int schemaId) {
        OptionalInt limit = accepted.rowLimit(schemaId);
        if (limit.isPresent()) {
            return new Decision(null, limit.getAsInt());
        }
        long now = time.milliseconds();
        Long refused = refusedAtMs.get(schemaId);
        if ((refused == null || now - refused >= recheckMs) && registry.isVersionOf(subject, schemaId)) {
            refusedAtMs.remove(schemaId);
            accepted.accept(schemaId, maxRowBytes);
            return new Decision(null, maxRowBytes);
        }
        if (refused == null || now - refused >= recheckMs) {
            refusedAtMs.put(schemaId, now);
        }
        return new Decision("schema id " + schemaId + " is not a version of the shard's subject " + subject, 0);
    }
}
