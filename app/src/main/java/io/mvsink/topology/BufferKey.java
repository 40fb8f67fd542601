package io.mvsink.topology;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Key of the correction buffer: {@code time} (8 bytes, big-endian, sign bit flipped so that
 * byte order is time order), the row's schema id (4 bytes), then the row's Avro binary. Two
 * updates consolidate exactly when they agree on all three.
 */
final class BufferKey {
    static final int HEADER = 12;
    /** Big-endian reads straight from the key's bytes: a {@code ByteBuffer.wrap} per read was 5% of a catch-up's samples. */
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

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
        return readLong(key, 0) ^ Long.MIN_VALUE;
    }

    static int schemaId(byte[] key) {
        return readInt(key, 8);
    }

    /** The big-endian long at {@code offset} of {@code bytes}. */
    static long readLong(byte[] bytes, int offset) {
        return (long) LONG.get(bytes, offset);
    }

    /** The big-endian int at {@code offset} of {@code bytes}. */
    static int readInt(byte[] bytes, int offset) {
        return (int) INT.get(bytes, offset);
    }

    static byte[] row(byte[] key) {
        return Arrays.copyOfRange(key, HEADER, key.length);
    }
}
