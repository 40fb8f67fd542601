package io.mvsink.registry;

import org.apache.avro.Schema;

/** One version of a subject: its global schema id and the schema. */
public record SubjectVersion(String subject, int id, Schema schema) {
}
