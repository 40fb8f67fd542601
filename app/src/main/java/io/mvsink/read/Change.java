package io.mvsink.read;

/**
 * One consolidated update of a subscription: {@code row} (its Avro JSON rendering in the
 * subject's latest schema, as {@link SnapshotReader} keys rows), {@code time}, and the net
 * {@code diff} of every update of that row at that time (never 0).
 */
public record Change(String row, long time, long diff) {
}
