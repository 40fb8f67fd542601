package io.mvsink.read;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * One consolidated update of a subscription: {@code row} (its Avro JSON rendering in the
 * subject's latest schema, as {@link SnapshotReader} keys rows), {@code time}, and the net
 * {@code diff} of every update of that row at that time (never 0); {@code record} is the row
 * itself, read into that schema (a copy the caller may keep), for output in Avro.
 *
 * <p>A subscription's changes render {@code row} on first use: a reader that outputs Avro never pays for the JSON.
 */
public final class Change {
    private final long time;
    private final long diff;
    private final GenericRecord record;
    private byte[] rowBytes;
    private String row;

    public Change(String row, long time, long diff, GenericRecord record) {
        this.row = Objects.requireNonNull(row);
        this.time = time;
        this.diff = diff;
        this.record = record;
    }

    private Change(GenericRecord record, long time, long diff, byte[] rowBytes) {
        this.time = time;
        this.diff = diff;
        this.record = record;
        this.rowBytes = rowBytes;
    }

    /**
     * A change whose {@link #row} is rendered from {@code record} when first asked for; {@code rowBytes} is the
     * record's Avro binary in its schema (the change keeps the array: the caller no longer writes to it).
     */
    static Change rendered(GenericRecord record, long time, long diff, byte[] rowBytes) {
        return new Change(record, time, diff, rowBytes);
    }

    /** The row's Avro JSON rendering. */
    public String row() {
        String rendered = row;
        if (rendered == null) {
            rendered = GenericData.get().toString(record);
            row = rendered;
        }
        return rendered;
    }

    public long time() {
        return time;
    }

    public long diff() {
        return diff;
    }

    public GenericRecord record() {
        return record;
    }

    /**
     * The row's Avro binary in the schema of {@link #record} (each field in schema order, as a {@code GenericDatumWriter}
     * writes it), read-only: what a subscriber that writes Avro or keys rows by their bytes need not encode again. A
     * subscription's changes carry it (they were consolidated by it); a snapshot's rows encode it when first asked.
     */
    public ByteBuffer rowBytes() {
        byte[] bytes = rowBytes;
        if (bytes == null) {
            ByteBuffer encoded = new RowBytes(record.getSchema()).of(record);
            bytes = Arrays.copyOfRange(encoded.array(), encoded.position(), encoded.limit());
            rowBytes = bytes;
        }
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Change c && time == c.time && diff == c.diff && row().equals(c.row())
            && Objects.equals(record, c.record);
    }

    @Override
    public int hashCode() {
        return Objects.hash(row(), time, diff);
    }

    @Override
    public String toString() {
        return "Change[row=" + row() + ", time=" + time + ", diff=" + diff + "]";
    }
}
