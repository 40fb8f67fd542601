package io.mvsink.batch;

/**
 * One consolidated update of a contribution: the row as Avro binary written with
 * {@code schemaId}, its time, and its net diff (never zero).
 */
public record Update(long time, int schemaId, byte[] row, long diff) {
}
