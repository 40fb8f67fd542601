package io.mvsink.read;

import org.apache.avro.generic.GenericRecord;

/**
 * One consolidated update of a subscription: {@code row} (its Avro JSON rendering in the
 * subject's latest schema, as {@link SnapshotReader} keys rows), {@code time}, and the net
 * {@code diff} of every update of that row at that time (never 0); {@code record} is the row
 * itself, read into that schema (a copy the caller may keep), for output in Avro.
 */
public record Change(String row, long time, long diff, GenericRecord record) {
}
