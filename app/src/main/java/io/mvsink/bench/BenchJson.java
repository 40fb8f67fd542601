package io.mvsink.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Writes a bench result document as indented JSON (every scenario's {@code --out}). */
final class BenchJson {
    private BenchJson() {
    }

    static void write(Path file, Object document) {
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bench result to " + file, e);
        }
    }
}
