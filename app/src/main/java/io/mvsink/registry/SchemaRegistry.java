package io.mvsink.registry;

import org.apache.avro.Schema;

/**
 * The few calls of a Confluent-compatible schema registry that mvsink needs. Implementations
 * cache: an id or schema once seen is never fetched again.
 *
 * <p>Errors: {@link UnknownSchemaException} when the registry answers that an id or subject
 * does not exist (the caller's input is bad), {@link RegistryUnavailableException} when the
 * registry cannot be reached or answers 5xx (retry later), {@link RegistryRequestException}
 * for any other refusal (4xx: fix the request or the configuration).
 */
public interface SchemaRegistry {

    /** Registers {@code schema} under {@code subject} (idempotent) and returns its global id. */
    int register(String subject, Schema schema);

    /** The writer schema with this global id. */
    Schema schemaById(int id);

    /**
     * The latest version registered under {@code subject}: never cached, so a version registered
     * since the last call is seen.
     *
     * @throws UnknownSchemaException the subject has no version
     */
    SubjectVersion latest(String subject);

    /**
     * Whether the schema with global id {@code id} is registered as a version of {@code subject}.
     * Once true it stays true (ids and versions are immutable; hard deletes aside), so an
     * implementation may cache a true answer, never a false one.
     */
    boolean isVersionOf(String subject, int id);

    /** Sets the compatibility level of one subject, e.g. {@code BACKWARD}. */
    void setCompatibility(String subject, String level);

    /** The compatibility level of one subject, or the global default if the subject has none. */
    String compatibility(String subject);
}
