package io.mvsink.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A {@link SchemaRegistry} in memory, for fast tests. Like a real registry it assigns global
 * ids from 1 (one id per distinct schema text, shared across subjects), keeps each subject's
 * versions and refuses, with a 409 {@link RegistryRequestException}, a new version that breaks
 * the subject's compatibility level. The global default level is {@code BACKWARD}. Thread-safe.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
    /** The levels a Confluent registry accepts. */
    public static final Set<String> LEVELS = Set.of("NONE", "BACKWARD", "BACKWARD_TRANSITIVE",
            "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    private final Map<String, Integer> idsByText = new HashMap<>();
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, List<Integer>> versionsBySubject = new HashMap<>();
    private final Map<String, String> levelsBySubject = new HashMap<>();
    private String defaultLevel = "BACKWARD";

    @Override
    public synchronized int register(String subject, Schema schema) {
        String text = schema.toString();
        Integer known = idsByText.get(text);
        List<Integer> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
        if (known != null && versions.contains(known)) {
            return known;
        }
        checkCompatible(subject, schema, versions);
        int id = known != null ? known : idsByText.size() + 1;
        idsByText.put(text, id);
        schemasById.put(id, schema);
        versions.add(id);
        return id;
    }

    @Override
    public synchronized Schema schemaById(int id) {
        Schema schema = schemasById.get(id);
        if (schema == null) {
            throw new UnknownSchemaException("no schema with id " + id + " in the in-memory registry");
        }
        return schema;
    }

    @Override
    public synchronized SubjectVersion latest(String subject) {
        List<Integer> versions = versionsBySubject.getOrDefault(subject, List.of());
        if (versions.isEmpty()) {
            throw new UnknownSchemaException("subject " + subject + " has no version in the in-memory registry");
        }
        int id = versions.get(versions.size() - 1);
        return new SubjectVersion(subject, id, schemasById.get(id));
    }

    @Override
    public synchronized boolean isVersionOf(String subject, int id) {
        return versionsBySubject.getOrDefault(subject, List.of()).contains(id);
    }

    @Override
    public synchronized void setCompatibility(String subject, String level) {
        levelsBySubject.put(subject, checkLevel(level, "subject " + subject));
    }

    @Override
    public synchronized String compatibility(String subject) {
        return levelsBySubject.getOrDefault(subject, defaultLevel);
    }

    /** Sets the global default compatibility level. */
    public synchronized void setDefaultCompatibility(String level) {
        defaultLevel = checkLevel(level, "the global default");
    }

    /** The ids registered under {@code subject}, oldest first (empty if none). */
    public synchronized List<Integer> versions(String subject) {
        return List.copyOf(versionsBySubject.getOrDefault(subject, List.of()));
    }

    private void checkCompatible(String subject, Schema candidate, List<Integer> versions) {
        String level = compatibility(subject);
        if (versions.isEmpty() || level.equals("NONE")) {
            return;
        }
        List<Integer> against = level.endsWith("_TRANSITIVE") ? versions : versions.subList(versions.size() - 1, versions.size());
        boolean backward = level.startsWith("BACKWARD") || level.startsWith("FULL");
        boolean forward = level.startsWith("FORWARD") || level.startsWith("FULL");
        for (int id : against) {
            Schema existing = schemasById.get(id);
            if ((backward && !canRead(candidate, existing)) || (forward && !canRead(existing, candidate))) {
                throw new RegistryRequestException("schema for subject " + subject + " is not " + level
                        + " compatible with its version with id " + id, 409);
            }
        }
    }

    private static boolean canRead(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static String checkLevel(String level, String where) {
        if (level == null || !LEVELS.contains(level)) {
            throw new RegistryRequestException("invalid compatibility level " + level + " for " + where
                    + ", expected one of " + LEVELS, 422);
        }
        return level;
    }
}
