package io.mvsink.topology;

import java.nio.ByteBuffer;
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

    AcceptedSchemas(KeyValueStore<Integer, byte[]> store) {
        this.store = store;
    }

    /** The row limit recorded when {@code schemaId} was accepted, or empty if it was not. */
    OptionalInt rowLimit(int schemaId) {
        byte[] stored = store.get(schemaId);
        return stored == null ? OptionalInt.empty() : OptionalInt.of(decode(schemaId, stored));
    }

    void accept(int schemaId, int maxRowBytes) {
        store.put(schemaId, encode(maxRowBytes));
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
