package io.mvsink.topology;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's accepted writer schema ids, in its changelogged store {@link StoreNames#SCHEMA_DECISIONS}:
 * each with the {@code max.row.bytes} in force when the task first accepted it, by which its
 * rows are judged from then on (see {@link SchemaGate}). Refusals are not stored: they are not
 * final.
 *
 * <p>Stored value, version 1: byte {@code 1}, then the limit as a 4-byte big-endian int. A value
 * of another version fails loudly rather than deciding by a guess.
 */
final class AcceptedSchemas {
    static final byte VERSION = 1;

    private final KeyValueStore<Integer, byte[]> store;
    /**
     * Decisions read or made since the task opened its store: a recorded limit never changes, and
     * a task that aborts reopens its stores and gets a new instance, so this cannot outlive a
     * rolled-back acceptance. Spares a store read per update (a catch-up's profile showed it).
     */
    private final Map<Integer, Integer> known = new HashMap<>();

    AcceptedSchemas(KeyValueStore<Integer, byte[]> store) {
        this.store = store;
    }

    /** The row limit recorded when {@code schemaId} was accepted, or empty if it was not. */
    OptionalInt rowLimit(int schemaId) {
        Integer limit = known.get(schemaId);
        if (limit != null) {
            return OptionalInt.of(limit);
        }
        byte[] stored = store.get(schemaId);
        if (stored == null) {
            return OptionalInt.empty();
        }
        int decoded = decode(schemaId, stored);
        known.put(schemaId, decoded);
        return OptionalInt.of(decoded);
    }

    void accept(int schemaId, int maxRowBytes) {
        store.put(schemaId, encode(maxRowBytes));
        known.put(schemaId, maxRowBytes);
    }

    static byte[] encode(int maxRowBytes) {
        return ByteBuffer.allocate(5).put(VERSION).putInt(maxRowBytes).array();
    }

    static int decode(int schemaId, byte[] stored) {
        if (stored.length != 5 || stored[0] != VERSION) {
            throw new IllegalStateException("stored decision for schema id " + schemaId + " has unknown format (version "
                + (stored.length == 0 ? "none" : stored[0]) + ", " + stored.length + " bytes)");
        }
        return ByteBuffer.wrap(stored, 1, 4).getInt();
    }
}
