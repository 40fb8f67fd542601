package io.mvsink.topology;

import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import io.mvsink.registry.UnknownSchemaException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.kafka.common.utils.Time;

/**
 * Decides whether rows written with a schema id belong to the shard: the latest version of the
 * shard's subject must be able to read them (Avro reader/writer compatibility), so that every
 * sealed part can be read into the shard's latest schema. Each id is decided once, against the
 * subject's latest version fetched at that moment; a refusal is decided again after
 * {@code recheckMs} (a newer version registered since may read it). One per task (in its
 * {@link InputDecoder}), so the registry sees one latest-version request per task and new id;
 * thread-safe all the same.
 *
 * <p>A registry that cannot be reached is not bad input: its exception propagates.
 */
final class SchemaGate {
    private final SchemaRegistry registry;
    private final String subject;
    private final Time time;
    private final long recheckMs;
    private final Map<Integer, Decision> decisions = new ConcurrentHashMap<>();

    /** {@code refusal} is null when the id is accepted. */
    private record Decision(String refusal, long decidedAtMs) {
    }

    SchemaGate(SchemaRegistry registry, String subject, Time time, long recheckMs) {
        this.registry = registry;
        this.subject = subject;
        this.time = time;
        this.recheckMs = recheckMs;
    }

    /** Null if rows of {@code schemaId} belong to the shard, else why not. */
    String refusal(int schemaId) {
        Decision decision = decisions.get(schemaId);
        long now = time.milliseconds();
        if (decision == null || (decision.refusal() != null && now - decision.decidedAtMs() >= recheckMs)) {
            decision = new Decision(decide(schemaId), now);
            decisions.put(schemaId, decision);
        }
        return decision.refusal();
    }

    private String decide(int schemaId) {
        Schema writer = registry.schemaById(schemaId);
        SubjectVersion latest;
        try {
            latest = registry.latest(subject);
        } catch (UnknownSchemaException e) {
            return "the shard's subject " + subject + " has no schema registered";
        }
        if (latest.id() == schemaId) {
            return null;
        }
        SchemaCompatibility.SchemaPairCompatibility check =
            SchemaCompatibility.checkReaderWriterCompatibility(latest.schema(), writer);
        if (check.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return null;
        }
        return "schema id " + schemaId + " cannot be read by the latest schema of subject " + subject
            + " (id " + latest.id() + "): " + check.getDescription();
    }
}
