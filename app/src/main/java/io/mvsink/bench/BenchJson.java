package io.mvsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Writes a bench result document as indented JSON (every scenario's {@code --out}). */
final class BenchJson {
    private BenchJson() {
    }

    static void write(Path file, Object document) {
        write(file, document, new ObjectMapper());
    }

    /**
     * Writes a document of records: each record's components, and its methods marked
     * {@code @JsonProperty}, under snake-case names ({@code sealP99Ms} as {@code seal_p99_ms}).
     */
    static void writeRecords(Path file, Object document) {
        write(file, document, new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }

    private static void write(Path file, Object document, ObjectMapper mapper) {
        try {
            mapper.enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bench result to " + file, e);
        }
    }
}
