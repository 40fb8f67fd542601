package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.read.ResumeToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * {@code mvsink subscribe} in a JVM of its own, its stdout in a file: JSON lines, or with
 * {@code --format avro} an Avro object container file (read back here up to its last whole block).
 */
final class CliSubscriber {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final Path out;
    private final Path log;
    private final boolean avro;

    private CliSubscriber(Process process, Path out, Path log, boolean avro) {
        this.process = process;
        this.out = out;
        this.log = log;
        this.avro = avro;
    }

    static CliSubscriber start(SinkHarness sink, String tag, List<String> args) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "child-apps"));
        boolean avro = args.contains("avro");
        Path out = dir.resolve(sink.name + "-subscribe-" + tag + (avro ? ".avro" : ".jsonl"));
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "io.mvsink.cli.Main", "subscribe"));
        command.addAll(sink.cliArgs());
        command.addAll(args);
        Path log = dir.resolve(sink.name + "-subscribe-" + tag + ".log");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        return new CliSubscriber(process, out, log, avro);
    }

    List<String> printed() {
        try {
            return avro ? avroLines(Files.readAllBytes(out)) : Files.readAllLines(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Avro records as the JSON lines they stand for, up to a block still being written. */
    private static List<String> avroLines(byte[] bytes) {
        List<String> lines = new ArrayList<>();
        if (bytes.length == 0) {
            return lines;
        }
        try (DataFileStream<GenericRecord> file = new DataFileStream<>(new ByteArrayInputStream(bytes),
                new GenericDatumReader<>())) {
            while (file.hasNext()) {
                GenericRecord r = file.next();
                lines.add(r.getSchema().getName().equals("Token") ? "{\"token\":\"" + r.get("token") + "\"}"
                    : "{\"row\":" + r.get("row") + ",\"time\":" + r.get("time") + ",\"diff\":" + r.get("diff") + "}");
            }
        } catch (IOException | RuntimeException e) {
            // a cut-off last block: what was read before it stands
        }
        return lines;
    }

    long tokens() {
        alive();
        return printed().stream().filter(l -> l.startsWith("{\"token\"")).count();
    }

    private void alive() {
        if (!process.isAlive()) {
            try {
                throw new AssertionError("subscribe exited with " + process.exitValue() + ": "
                    + Files.readString(log));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    boolean reached(long upper) {
        alive();
        List<String> kept = upToLastToken(printed());
        return !kept.isEmpty() && ResumeToken.parse(read(kept.get(kept.size() - 1)).get("token").asText())
            .upper() >= upper;
    }

    /** Waits for the command to end by itself, asserts its exit code; what it printed on stderr. */
    String exited(int code) throws InterruptedException, IOException {
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "subscribe ends by itself");
        String said = Files.readString(log);
        assertEquals(code, process.exitValue(), said);
        return said;
    }

    List<String> kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        return printed();
    }

    /** SIGTERM: the command ends after the seal it is printing and exits 0. */
    List<String> stop() throws InterruptedException {
        process.destroy();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "subscribe stops on SIGTERM");
        assertEquals(0, process.exitValue(), "subscribe exits 0 on SIGTERM");
        return printed();
    }

    /** The file the command's stdout goes to. */
    Path output() {
        return out;
    }

    /** The printed lines up to and including the last token (what a resume continues after). */
    static List<String> upToLastToken(List<String> printed) {
        int last = printed.size() - 1;
        while (last >= 0 && !printed.get(last).startsWith("{\"token\"")) {
            last--;
        }
        return printed.subList(0, last + 1);
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(json, e);
        }
    }
}
