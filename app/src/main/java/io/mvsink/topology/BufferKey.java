package io.mvsink.topology;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Key of the correction buffer: {@code time} (8 bytes, big-endian, sign bit flipped so that
 * byte order is time order), the row's schema id (4 bytes), then the row's Avro binary. Two
 * updates consolidate exactly when they agree on all three.
 */
final class BufferKey {
    static final int HEADER = 12;

    private BufferKey() {
    }

    static byte[] encode(long time, int schemaId, byte[] row) {
        return ByteBuffer.allocate(HEADER + row.length)
            .putLong(time ^ Long.MIN_VALUE)
            .putInt(schemaId)
            .put(row)
            .array();
    }

    /** The smallest key of {@code time}: every key with a time at or above it sorts at or after it. */
    static byte[] timeFloor(long time) {
        return ByteBuffer.allocate(8).putLong(time ^ Long.MIN_VALUE).array();
    }

    static long time(byte[] key) {
        return ByteBuffer.wrap(key).getLong() ^ Long.MIN_VALUE;
    }

    static int schemaId(byte[] key) {
        return ByteBuffer.wrap(key).getInt(8);
    }

    static byte[] row(byte[] key) {
        return Arrays.copyOfRange(key, HEADER, key.length);
    }
}
