package io.mvsink.read;

import io.mvsink.batch.TestUpdates;
import org.apache.avro.generic.GenericRecord;

/** Changes as a subscription hands them over (with their rows' Avro binary), for tests outside the read room. */
public final class TestChanges {
    private TestChanges() {
    }

    /** The change of {@code row} at {@code time} by {@code diff}, carrying the row's Avro binary in its schema. */
    public static Change of(GenericRecord row, long time, long diff) {
        return Change.rendered(row, time, diff, TestUpdates.binary(row));
    }
}
