package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mvsink.MvsinkApp;
import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.batch.PartEncoder;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * mvsink between clients it did not write (local-stack/interop, pinned by package-lock.json): a
 * producer built on Confluent's JavaScript schema registry client and {@code AvroSerializer} over
 * kafkajs registers its {@code .avsc} files' text (indented, with docs) under {@code <topic>-value},
 * writes updates with multiplicities and retractions, progress to every partition, and a second,
 * backward-compatible version mid-stream, while an app seals; the snapshot equals the producer's
 * own model and nothing is dead-lettered. Then avsc, a JavaScript Avro implementation, decodes
 * every sealed part (rows, times, diffs and the {@code mvsink.*} metadata, the schema id among
 * them) and the Avro container file {@code mvsink subscribe --format avro} prints, and both agree
 * with the model.
 */
@ExtendWith(LocalStackExtension.class)
class InteropIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 4;
    private static final String CHANGE = "io.mvsink.subscribe.Change";
    private static final String TOKEN = "io.mvsink.subscribe.Token";

    /** A row (as JSON, compared as a tree: field order and number rendering do not matter) at a time. */
    private record RowAt(JsonNode row, long time) {
    }

    @Test
    void shouldSealWhatAThirdPartyProducerWroteAndBeReadByAThirdPartyReader(LocalStack stack) throws Exception {
        // parts are checked as sealed, each in a blob: no compaction (which also keeps small batches inline)
        Properties overrides = new Properties();
        overrides.put(MvsinkConfig.COMPACTION_ENABLED, "false");
        Path work = Files.createTempDirectory("mvsink-interop");
        try (SinkHarness sink = SinkHarness.withoutRowSchema(stack, PARTITIONS, overrides)) {
            MvsinkApp app = sink.startApp(2);
            Path modelFile = work.resolve("model.json");
            String produced = NodeScript.run("produce.mjs", List.of("--brokers", stack.bootstrapServers(),
                "--registry", stack.registryUrl(), "--topic", sink.correctionsTopic(), "--out", modelFile.toString()),
                Duration.ofSeconds(90));
            System.err.print("InteropIT: " + produced);
            JsonNode model = JSON.readTree(modelFile.toFile());
            long end = model.get("end").asLong();
            int v1 = model.at("/schemaIds/v1").asInt();
            int v2 = model.at("/schemaIds/v2").asInt();
            assertNotEquals(v1, v2, "the second .avsc is a new version");
            assertEquals(sink.correctionsTopic() + "-value", model.get("subject").asText());
            assertEquals(v2, sink.registry.latest(sink.correctionsTopic() + "-value").id(),
                "the JS client's last registration is the subject's latest version");
            assertEquals("BACKWARD", sink.registry.compatibility(sink.correctionsTopic() + "-value"),
                "the level the JS client set through the registry's REST API");

            ShardState state = sink.awaitUpper(end);
            assertEquals(end, state.upper(), "sealed up to the producer's last progress");
            assertEquals(0, app.metrics().deadLetteredCount(), "records dead-lettered");
            assertEquals(0, app.metrics().lateUpdates(), "late updates (the producer sent progress after each round)");
            Map<JsonNode, Long> expected = modelRows(model);
            assertTrue(expected.size() > 50, "the model holds rows: " + expected.size());
            assertEquals(expected, rows(sink.snapshot(state)), "snapshot = the JS producer's model");
            sink.assertEveryAppendIsAnExactCover();
            assertEquals(0, sink.orphanedBatches(), "orphaned batches");

            assertPartsDecodeWithAvsc(sink, state, model, work, v1, v2);
            assertSubscribeDecodesWithAvsc(sink, model, work, end);
        }
    }

    /**
     * Every sealed part, decoded by avsc into the latest row version: its metadata names its
     * shard, range, batch and writer schema id, and the parts hold the producer's updates below
     * the end, consolidated by (row, time).
     */
    private static void assertPartsDecodeWithAvsc(SinkHarness sink, ShardState state, JsonNode model, Path work,
                                                  int v1, int v2) throws IOException {
        List<String> files = new ArrayList<>();
        Map<String, Batch> batchOf = new HashMap<>();
        Map<String, Part> partOf = new HashMap<>();
        for (Batch batch : state.batches()) {
            for (Part part : batch.getParts()) {
                Path file = work.resolve("part-" + files.size() + ".avro");
                Files.write(file, sink.blobs.get(part.getKey()));
                files.add(file.toString());
                batchOf.put(file.toString(), batch);
                partOf.put(file.toString(), part);
            }
        }
        assertFalse(files.isEmpty(), "sealed parts");
        List<String> args = new ArrayList<>(List.of("--row", NodeScript.dir().resolve("row-v2.avsc").toString()));
        args.addAll(files);
        JsonNode decoded = JSON.readTree(NodeScript.run("read-container.mjs", args, Duration.ofSeconds(60)));
        assertEquals(files.size(), decoded.size(), "files decoded by avsc");

        Map<RowAt, Long> inParts = new HashMap<>();
        Set<Integer> ids = new HashSet<>();
        for (JsonNode file : decoded) {
            String name = file.get("file").asText();
            Batch batch = batchOf.get(name);
            Part part = partOf.get(name);
            JsonNode meta = file.get("meta");
            String where = "part " + part.getKey() + " (" + name + ")";
            assertEquals(Integer.toString(part.getSchemaId()), meta.path(PartEncoder.META_SCHEMA_ID).asText(null),
                where + ": " + PartEncoder.META_SCHEMA_ID);
            assertEquals(sink.config(0).shard(), meta.path(PartEncoder.META_SHARD).asText(null), where);
            assertEquals(Long.toString(batch.getLower()), meta.path(PartEncoder.META_LOWER).asText(null), where);
            assertEquals(Long.toString(batch.getUpper()), meta.path(PartEncoder.META_UPPER).asText(null), where);
            assertEquals(batch.getBatchId().toString(), meta.path(PartEncoder.META_BATCH).asText(null), where);
            ids.add(part.getSchemaId());
            boolean writtenInV2 = writerRowFields(file.get("schema")).contains("region");
            assertEquals(part.getSchemaId() == v2, writtenInV2, where + ": the writer row schema of id "
                + part.getSchemaId() + " (v1 " + v1 + ", v2 " + v2 + ")");
            for (JsonNode update : file.get("records")) {
                long time = update.get("time").asLong();
                long diff = update.get("diff").asLong();
                assertTrue(time >= batch.getLower() && time < batch.getUpper(), where + ": time " + time);
                assertNotEquals(0, diff, where + ": a consolidated update has a diff");
                inParts.merge(new RowAt(update.get("row"), time), diff, Long::sum);
            }
        }
        assertEquals(Set.of(v1, v2), ids, "parts of both versions");
        inParts.values().removeIf(n -> n == 0);
        assertEquals(updatesByRowAndTime(model, Long.MIN_VALUE, state.upper()), inParts,
            "the parts (decoded by avsc) hold the produced updates, by (row, time)");
        System.err.printf("InteropIT: %d parts of %d batches decoded by avsc%n", files.size(), state.batches().size());
    }

    /** The field names of a part's writer row schema (the container's {@code Update.row}). */
    private static Set<String> writerRowFields(JsonNode updateSchema) {
        Set<String> names = new HashSet<>();
        for (JsonNode field : updateSchema.get("fields")) {
            if (field.get("name").asText().equals("row")) {
                field.get("type").get("fields").forEach(f -> names.add(f.get("name").asText()));
            }
        }
        return names;
    }

    /**
     * {@code mvsink subscribe --format avro --as-of T} (a child JVM) decoded by avsc: its snapshot
     * (Changes at T up to the first Token) is the model as of T, and its later Changes are the
     * produced updates above T, by (row, time).
     */
    private static void assertSubscribeDecodesWithAvsc(SinkHarness sink, JsonNode model, Path work, long end)
            throws Exception {
        long asOf = (model.get("end").asLong() + 1_000) / 2;
        CliSubscriber subscriber = CliSubscriber.start(sink, "interop",
            List.of("--as-of", Long.toString(asOf), "--format", "avro"));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertTrue(subscriber.reached(end), "subscribe printed a token at " + end));
        subscriber.stop();
        Path copy = work.resolve("subscribe.avro");
        Files.copy(subscriber.output(), copy);
        JsonNode file = JSON.readTree(NodeScript.run("read-container.mjs", List.of(copy.toString()),
            Duration.ofSeconds(60))).get(0);
        assertEquals(sink.correctionsTopic() + "-value", file.at("/meta/mvsink.subject").asText(null));

        Map<JsonNode, Long> snapshot = new HashMap<>();
        Map<RowAt, Long> changes = new HashMap<>();
        int tokens = 0;
        long previous = Long.MIN_VALUE;
        for (JsonNode record : file.get("records")) {
            if (record.has(TOKEN)) {
                tokens++;
                previous = Long.MIN_VALUE;
                continue;
            }
            JsonNode change = record.get(CHANGE);
            long time = change.get("time").asLong();
            long diff = change.get("diff").asLong();
            assertNotEquals(0, diff, "a printed change has a diff: " + change);
            if (tokens == 0) {
                assertEquals(asOf, time, "a snapshot row is printed at the as-of time: " + change);
                snapshot.merge(change.get("row"), diff, Long::sum);
            } else {
                assertTrue(time > asOf && time < end, "a change above the as-of time: " + change);
                assertTrue(time >= previous, "a seal's changes in time order: " + change);
                previous = time;
                assertNull(changes.put(new RowAt(change.get("row"), time), diff),
                    "a seal's changes consolidated per row and time (printed once): " + change);
            }
        }
        assertTrue(tokens >= 2, "tokens after the snapshot and the seals: " + tokens);
        Map<JsonNode, Long> expectedSnapshot = new HashMap<>();
        updatesByRowAndTime(model, Long.MIN_VALUE, asOf + 1).forEach((at, n) -> expectedSnapshot.merge(at.row(), n, Long::sum));
        expectedSnapshot.values().removeIf(n -> n == 0);
        assertEquals(expectedSnapshot, snapshot, "subscribe's snapshot (decoded by avsc) = the model as of " + asOf);
        assertEquals(updatesByRowAndTime(model, asOf + 1, end), changes,
            "subscribe's changes (decoded by avsc) = the produced updates above " + asOf);
        System.err.printf("InteropIT: subscribe --format avro as of %d: %d snapshot rows, %d changes, %d tokens%n",
            asOf, snapshot.size(), changes.size(), tokens);
    }

    /** The producer's consolidated rows. */
    private static Map<JsonNode, Long> modelRows(JsonNode model) {
        Map<JsonNode, Long> rows = new HashMap<>();
        for (JsonNode row : model.get("rows")) {
            rows.merge(row.get("row"), row.get("count").asLong(), Long::sum);
        }
        return rows;
    }

    /** The produced updates with {@code from <= time < to}, summed by (row, time), zeros left out. */
    private static Map<RowAt, Long> updatesByRowAndTime(JsonNode model, long from, long to) {
        Map<RowAt, Long> sums = new HashMap<>();
        for (JsonNode update : model.get("updates")) {
            long time = update.get("time").asLong();
            if (time >= from && time < to) {
                sums.merge(new RowAt(update.get("row"), time), update.get("diff").asLong(), Long::sum);
            }
        }
        sums.values().removeIf(n -> n == 0);
        return sums;
    }

    /** A snapshot's rows (Avro's JSON rendering) as JSON trees. */
    private static Map<JsonNode, Long> rows(Map<String, Long> snapshot) {
        Map<JsonNode, Long> rows = new HashMap<>();
        snapshot.forEach((row, count) -> {
            try {
                rows.put(JSON.readTree(row), count);
            } catch (IOException e) {
                throw new UncheckedIOException(row, e);
            }
        });
        return rows;
    }
}
