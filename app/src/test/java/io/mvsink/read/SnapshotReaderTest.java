package io.mvsink.read;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.Update;
import io.mvsink.consensus.ShardState;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnapshotReaderTest {
    private static final GenericRecord BOOK = row(1, "books", 5);
    private static final GenericRecord TOY = row(2, "toys", 7);
    private static final GenericRecord GAME = row(3, "games", 9);
    /** v1 ({@link Workload#ROW_SCHEMA}) and a field with a default: backward compatible. */
    private static final Schema V2 = io.mvsink.batch.TestUpdates.ROW_V2;

    private final ShardFixture shard = new ShardFixture();
    private final InMemorySchemaRegistry registry = shard.registry;
    private final int schemaId = shard.schemaId;
    private final ShardState state = shard.state;
    private final SnapshotReader reader = new SnapshotReader(shard.blobs, registry, "orders-value");

    @AfterEach
    void close() {
        shard.close();
    }

    @Test
    void shouldConsolidateAcrossBatchesAndPartsLeavingOutZeroCounts() throws Exception {
        List<Update> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            many.add(update(schemaId, BOOK, 100 + i, 1));
        }
        Batch p0 = shard.build(0, 0, 1000, many);
        Batch p1 = shard.build(1, 0, 1000, List.of(update(schemaId, TOY, 10, 1), update(schemaId, BOOK, 20, -50),
            update(schemaId, GAME, 30, 2), update(schemaId, GAME, 40, -2)));
        assertTrue(p0.getParts().size() > 1, "the test needs a multi-part batch");
        shard.append(1, 0, 1000, p0, p1);

        assertEquals(Map.of(json(BOOK), 150L, json(TOY), 1L), reader.read(state, 999));
    }

    @Test
    void shouldReadOnlyUpdatesAtOrBeforeAsOf() throws Exception {
        shard.append(1, 0, 2000,
            shard.build(0, 0, 2000, List.of(update(schemaId, BOOK, 500, 1), update(schemaId, TOY, 1500, 1))),
            shard.build(1, 0, 1000, List.of(update(schemaId, BOOK, 999, 1))),
            shard.build(1, 1000, 2000, List.of(update(schemaId, BOOK, 1000, -1))));

        assertEquals(Map.of(), reader.read(state, 499));
        assertEquals(Map.of(json(BOOK), 1L), reader.read(state, 500));
        assertEquals(Map.of(json(BOOK), 2L), reader.read(state, 999));
        assertEquals(Map.of(json(BOOK), 1L), reader.read(state, 1000));
        assertEquals(Map.of(json(BOOK), 1L), reader.read(state, 1499));
        assertEquals(Map.of(json(BOOK), 1L, json(TOY), 1L), reader.read(state, 1999));
    }

    @Test
    void shouldRefuseAnAsOfAtOrAboveTheUpper() throws Exception {
        shard.append(1, 0, 1000, shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 1, 1))), shard.build(1, 0, 1000, List.of()));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.read(state, 1000));
        assertTrue(e.getMessage().contains("1000"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reader.read(state, Long.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> reader.read(new ShardState("empty"), 0));
    }

    @Test
    void shouldRefuseAPartWhoseSchemaIdDisagreesWithItsBatch() throws Exception {
        Batch batch = shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 1, 1)));
        Part part = batch.getParts().get(0);
        batch.setParts(List.of(Part.newBuilder(part).setSchemaId(schemaId + 1).build()));
        shard.append(1, 0, 1000, batch, shard.build(1, 0, 1000, List.of()));

        assertThrows(IllegalStateException.class, () -> reader.read(state, 999));
    }

    @Test
    void shouldReadEveryPartIntoTheLatestSchemaSoThatVersionsCancel() throws Exception {
        registry.setCompatibility("orders-value", "BACKWARD");
        int v2 = registry.register("orders-value", V2);
        shard.append(1, 0, 1000,
            shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 10, 1), update(schemaId, TOY, 20, 1),
                update(v2, inV2(GAME, "eu"), 30, 1), update(v2, inV2(TOY, "none"), 40, -1))),
            shard.build(1, 0, 1000, List.of(update(v2, inV2(BOOK, "eu"), 50, 1))));

        Map<String, Long> rows = reader.read(state, 999);

        assertEquals(Map.of(json(inV2(BOOK, "none")), 1L, json(inV2(BOOK, "eu")), 1L, json(inV2(GAME, "eu")), 1L),
            rows, "TOY inserted under v1 and retracted under v2 cancels; v1 rows get v2's default");
    }

    @Test
    void shouldRefuseAnAsOfBelowSince() throws Exception {
        state.apply(StateDiff.newBuilder().setShard("orders").setSeqno(1).setLower(0).setUpper(1000)
            .setPartitionCount(2).setSince(500L).setAppendedAtMs(0L)
            .setAdded(List.of(shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 500, 1))), shard.build(1, 0, 1000, List.of())))
            .build());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.read(state, 499));
        assertTrue(e.getMessage().contains("since 500"), e.getMessage());
        assertEquals(Map.of(json(BOOK), 1L), reader.read(state, 500), "since itself is readable");
    }

    @Test
    void shouldNameThePartAndTheIdsWhenTheLatestSchemaCannotReadAPart() throws Exception {
        shard.append(1, 0, 1000, shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 1, 1))), shard.build(1, 0, 1000, List.of()));
        registry.setCompatibility("orders-value", "NONE");
        int incompatible = registry.register("orders-value", SchemaBuilder.record("Row").namespace("io.mvsink.demo")
            .fields().requiredString("id").endRecord());
        String key = state.batches().iterator().next().getParts().get(0).getKey();

        UnreadablePartException e = assertThrows(UnreadablePartException.class, () -> reader.read(state, 999));

        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().contains("schema id " + schemaId), e.getMessage());
        assertTrue(e.getMessage().contains("id " + incompatible + " of subject orders-value"), e.getMessage());
    }

    @Test
    void shouldReadASealsChangesInTimeOrderConsolidatedPerRowAndTime() throws Exception {
        shard.append(1, 0, 1000, shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 10, 1))), shard.build(1, 0, 1000, List.of()));
        shard.append(2, 1000, 2000,
            shard.build(0, 1000, 2000, List.of(update(schemaId, TOY, 1500, 1), update(schemaId, BOOK, 1200, -1),
                update(schemaId, TOY, 1500, 2), update(schemaId, GAME, 1100, 1), update(schemaId, GAME, 1100, -1))),
            shard.build(1, 1000, 2000, List.of(update(schemaId, BOOK, 1999, 3), update(schemaId, BOOK, 1000, 1))));

        assertEquals(List.of(change(BOOK, 10, 1)), reader.changes(state, 0, 1000));
        assertEquals(List.of(change(BOOK, 1000, 1), change(BOOK, 1200, -1),
                change(TOY, 1500, 3), change(BOOK, 1999, 3)),
            reader.changes(state, 1000, 2000), "GAME's insert and retraction at one time cancel");
        assertEquals(List.of(change(BOOK, 1200, -1)), reader.changes(state, 1001, 1500));
    }

    @Test
    void shouldOrderASealsChangesAtOneTimeByTheirRenderingAndCancelRowsOfTwoVersions() throws Exception {
        registry.setCompatibility("orders-value", "BACKWARD");
        int v2 = registry.register("orders-value", V2);
        shard.append(1, 0, 1000, shard.build(0, 0, 1000, List.of(update(schemaId, TOY, 500, 1),
                update(schemaId, GAME, 500, 1), update(schemaId, BOOK, 500, 2), update(v2, inV2(BOOK, "none"), 500, -2))),
            shard.build(1, 0, 1000, List.of(update(v2, inV2(TOY, "none"), 500, 1))));
        List<String> rendered = new java.util.ArrayList<>(List.of(json(inV2(TOY, "none")), json(inV2(GAME, "none"))));
        java.util.Collections.sort(rendered);

        List<Change> changes = reader.changes(state, 0, 1000);

        assertEquals(rendered, changes.stream().map(Change::row).toList(), "BOOK under v1 and v2 cancels; TOY adds up");
        assertEquals(2L, changes.get(rendered.indexOf(json(inV2(TOY, "none")))).diff());
    }

    @Test
    void shouldReadASealFromTheBatchThatMergedItsBatches() throws Exception {
        Batch a0 = shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 10, 1)));
        Batch a1 = shard.build(1, 0, 1000, List.of(update(schemaId, TOY, 20, 1)));
        Batch b0 = shard.build(0, 1000, 2000, List.of(update(schemaId, BOOK, 1500, -1)));
        Batch b1 = shard.build(1, 1000, 2000, List.of(update(schemaId, GAME, 1600, 1)));
        shard.append(1, 0, 1000, a0, a1);
        shard.append(2, 1000, 2000, b0, b1);
        List<Change> before = reader.changes(state, 1000, 2000);

        state.apply(shard.compaction(3, a0, a1, b0, b1));

        assertEquals(1, state.batches().size());
        assertEquals(List.of(change(BOOK, 1500, -1), change(GAME, 1600, 1)), before);
        assertEquals(before, reader.changes(state, 1000, 2000), "the seal's own batches are gone; the merge holds it");
    }

    @Test
    void shouldRefuseChangesFromALowerAtOrBelowTheSinceOrAboveTheUpper() throws Exception {
        state.apply(StateDiff.newBuilder().setShard("orders").setSeqno(1).setLower(0).setUpper(1000)
            .setPartitionCount(2).setSince(500L).setAppendedAtMs(0L)
            .setAdded(List.of(shard.build(0, 0, 1000, List.of(update(schemaId, BOOK, 600, 1))), shard.build(1, 0, 1000, List.of())))
            .build());

        IllegalArgumentException below = assertThrows(IllegalArgumentException.class,
            () -> reader.changes(state, 500, 1000));
        assertTrue(below.getMessage().contains("since of shard orders, 500"), below.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reader.changes(state, 501, 1001));
        assertEquals(List.of(change(BOOK, 600, 1)), reader.changes(state, 501, 1000));
    }

    @Test
    void shouldReadInlineAndBlobBatchesAlikeAcrossSchemaVersions() throws Exception {
        try (ShardFixture inlining = new ShardFixture(512)) {
            InMemorySchemaRegistry schemas = inlining.registry;
            int v1 = inlining.schemaId;
            schemas.setCompatibility("orders-value", "BACKWARD");
            int v2 = schemas.register("orders-value", V2);
            List<Update> many = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                many.add(update(v1, BOOK, 100 + i, 1));
            }
            Batch big = inlining.build(0, 0, 1000, many);
            Batch small = inlining.build(1, 0, 1000, List.of(update(v1, TOY, 10, 1), update(v2, inV2(GAME, "eu"), 20, 1)));
            assertEquals(0, big.getParts().stream().filter(p -> p.getInline() != null).count(), "above the limit: blobs");
            long blobsBefore = inlining.blobs.writeRequests();
            Batch later = inlining.build(0, 1000, 2000, List.of(update(v2, inV2(BOOK, "none"), 1500, -100),
                update(v1, TOY, 1600, -1)));
            Batch empty = inlining.build(1, 1000, 2000, List.of());
            assertEquals(blobsBefore, inlining.blobs.writeRequests(), "small batches write no blob");
            assertEquals(2, small.getParts().size(), "one inline part per schema id");
            assertEquals(List.of("inline:" + TestUpdates.fingerprint(Workload.ROW_SCHEMA), "inline:" + TestUpdates.fingerprint(V2)),
                small.getParts().stream().map(Part::getKey).toList(), "keyed by the writer schema's fingerprint");
            small.getParts().forEach(p -> assertEquals(p.getBytes(), (long) p.getInline().remaining()));
            inlining.append(1, 0, 1000, big, small);
            inlining.append(2, 1000, 2000, later, empty);
            SnapshotReader inlineReader = new SnapshotReader(inlining.blobs, schemas, "orders-value");

            assertEquals(Map.of(json(inV2(BOOK, "none")), 100L, json(inV2(TOY, "none")), 1L, json(inV2(GAME, "eu")), 1L),
                inlineReader.read(inlining.state, 999));
            assertEquals(Map.of(json(inV2(GAME, "eu")), 1L), inlineReader.read(inlining.state, 1999),
                "the inline retractions, one under each version, cancel the blob batch's and the inline batch's rows");
            assertEquals(List.of(change(inV2(BOOK, "none"), 1500, -100), change(inV2(TOY, "none"), 1600, -1)),
                inlineReader.changes(inlining.state, 1000, 2000));
            assertEquals(Set.copyOf(big.getParts().stream().map(Part::getKey).toList()), inlining.state.referencedBlobs(),
                "inline parts are no blobs");
            assertEquals(small.getParts().stream().mapToLong(Part::getBytes).sum()
                + later.getParts().stream().mapToLong(Part::getBytes).sum(), inlining.state.inlineBytes());
        }
    }

    @Test
    void shouldRefuseASnapshotOfInlineRowsWhoseSchemaIdTheRegistryNowGivesAnotherSchema() throws Exception {
        try (ShardFixture inlining = new ShardFixture(4096)) {
            inlining.append(1, 0, 1000, inlining.build(0, 0, 1000, List.of(update(inlining.schemaId, BOOK, 10, 1))),
                inlining.build(1, 0, 1000, List.of(update(inlining.schemaId, TOY, 20, 1))));
            InMemorySchemaRegistry restored = new InMemorySchemaRegistry();
            assertEquals(inlining.schemaId, restored.register("orders-value", TestUpdates.SAME_LAYOUT),
                "the restored registry gives the id to another schema");
            SnapshotReader restoredReader = new SnapshotReader(inlining.blobs, restored, "orders-value");
            Object[] read = new Object[1];

            UnreadablePartException e = assertThrows(UnreadablePartException.class,
                () -> read[0] = restoredReader.read(inlining.state, 999), () -> "read instead: " + read[0]);

            assertTrue(e.getMessage().contains("(schema id " + inlining.schemaId + ")"), e.getMessage());
            assertTrue(e.getMessage().contains("fingerprint " + TestUpdates.fingerprint(Workload.ROW_SCHEMA)
                + ", but the registry's schema id " + inlining.schemaId + " has fingerprint "
                + TestUpdates.fingerprint(TestUpdates.SAME_LAYOUT)), e.getMessage());
        }
    }

    private static GenericRecord inV2(GenericRecord v1, String region) {
        GenericRecord row = new GenericData.Record(V2);
        v1.getSchema().getFields().forEach(f -> row.put(f.name(), v1.get(f.name())));
        row.put("region", region);
        return row;
    }

    private static String json(GenericRecord row) {
        return GenericData.get().toString(row);
    }

    private static Change change(GenericRecord row, long time, long diff) {
        return new Change(json(row), time, diff, row);
    }
}
