package io.mvsink.read;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.TestUpdates.ReadUpdate;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.jupiter.api.Test;

class PartReaderTest {
    private static final Schema V2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount")
        .name("region").type().stringType().stringDefault("none").endRecord();
    private static final Schema UNRELATED = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredString("id").endRecord();

    /** A registry whose id 1 is v1 ({@link Workload#ROW_SCHEMA}), the id inline parts are written with. */
    private final InMemorySchemaRegistry written = new InMemorySchemaRegistry();
    private final int writtenId = written.register("orders-value", Workload.ROW_SCHEMA);

    /** A part of v1 rows, written with schema id 1. */
    private final byte[] part = new PartEncoder("deflate", 1 << 20).encode(Workload.ROW_SCHEMA,
        Map.of(PartEncoder.META_SCHEMA_ID, "1"),
        List.of(update(1, row(1, "books", 5), 10, 1), update(1, row(2, "toys", 7), 20, -2))).get(0).bytes();

    @Test
    void shouldReadRowsOfAnOlderVersionIntoTheTargetWithItsDefaults() {
        List<ReadUpdate> read = new ArrayList<>();
        new PartReader(new SubjectVersion("orders-value", 2, V2))
            .read("orders/p", part, 1, (row, time, diff) -> read.add(new ReadUpdate(copy(row), time, diff)));

        assertEquals(List.of(new ReadUpdate(v2(1, "books", 5), 10, 1), new ReadUpdate(v2(2, "toys", 7), 20, -2)), read);
    }

    @Test
    void shouldRefuseAPartWhoseMetadataNamesAnotherSchemaId() {
        PartReader reader = new PartReader(new SubjectVersion("orders-value", 1, Workload.ROW_SCHEMA));

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> reader.read("orders/p", part, 3, (row, time, diff) -> { }));

        assertEquals("part orders/p carries schema id 1 but its batch says 3", e.getMessage());
    }

    @Test
    void shouldNameThePartAndBothIdsWhenTheTargetCannotReadTheWriter() {
        PartReader reader = new PartReader(new SubjectVersion("orders-value", 7, UNRELATED));

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> reader.read("orders/p", part, 1, (row, time, diff) -> { }));

        assertTrue(e.getMessage().startsWith("part orders/p was written with schema id 1, which the target schema "
            + "(id 7 of subject orders-value) cannot read"), e.getMessage());
    }

    @Test
    void shouldRefuseAnInlinePartWhoseSchemaIdTheRegistryNowGivesAnotherSchemaOfTheSameLayout() {
        Batch batch = inlineBatch(written);
        InMemorySchemaRegistry restored = new InMemorySchemaRegistry();
        assertEquals(writtenId, restored.register("orders-value", TestUpdates.SAME_LAYOUT),
            "the restored registry gives the id to another schema");
        List<ReadUpdate> read = new ArrayList<>();

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> readInline(batch, restored, read), () -> "read instead: " + read);

        assertEquals(List.of(), read, "no row read");
        assertEquals("the inline part (schema id 1) of batch " + batch.getBatchId() + " was written with a schema of "
            + "fingerprint " + TestUpdates.fingerprint(Workload.ROW_SCHEMA) + ", but the registry's schema id 1 has "
            + "fingerprint " + TestUpdates.fingerprint(TestUpdates.SAME_LAYOUT) + ": the registry no longer holds the "
            + "schema the part was written with (restored with other ids, or the version deleted and its id reused)",
            e.getMessage());
    }

    @Test
    void shouldRecordTheWriterSchemasFingerprintInAnInlinePartsKeyAndReadItWhenTheRegistryAgrees() {
        Batch batch = inlineBatch(written);
        List<ReadUpdate> read = new ArrayList<>();

        readInline(batch, written, read);

        assertEquals("inline:" + TestUpdates.fingerprint(Workload.ROW_SCHEMA), batch.getParts().get(0).getKey());
        assertEquals(List.of(new ReadUpdate(row(1, "books", 5), 10, 1), new ReadUpdate(row(2, "toys", 7), 20, -2)), read);
    }

    @Test
    void shouldReadAnInlinePartWrittenBeforeFingerprintsWithoutACheck() {
        Batch batch = inlineBatch(written);
        Part old = Part.newBuilder(batch.getParts().get(0)).setKey("").build();
        Batch before = Batch.newBuilder(batch).setParts(List.of(old)).build();
        InMemorySchemaRegistry restored = new InMemorySchemaRegistry();
        restored.register("orders-value", TestUpdates.SAME_LAYOUT);
        List<ReadUpdate> read = new ArrayList<>();
        List<ReadUpdate> misread = new ArrayList<>();

        readInline(before, written, read);
        readInline(before, restored, misread);

        assertEquals(List.of(new ReadUpdate(row(1, "books", 5), 10, 1), new ReadUpdate(row(2, "toys", 7), 20, -2)), read);
        assertEquals(List.of(new ReadUpdate(sameLayout(1, "books", 5), 10, 1),
            new ReadUpdate(sameLayout(2, "toys", 7), 20, -2)), misread, "key \"\": nothing to check against");
    }

    @Test
    void shouldRefuseAnInlinePartWhoseKeyIsNoFingerprint() {
        Batch batch = inlineBatch(written);
        Part odd = Part.newBuilder(batch.getParts().get(0)).setKey("orders/p-0000.avro").build();
        PartReader reader = new PartReader(written.latest("orders-value"));

        UnreadablePartException e = assertThrows(UnreadablePartException.class,
            () -> reader.read(odd, "b1", new InMemoryBlobStore(), written, (row, time, diff) -> { }));

        assertEquals("the inline part (schema id 1) of batch b1 has the key \"orders/p-0000.avro\", which is neither "
            + "\"\" nor inline:<16 hex digits>", e.getMessage());
    }

    /** A batch of two v1 updates written inline under id 1 of {@code registry}. */
    private static Batch inlineBatch(SchemaRegistry registry) {
        return TestUpdates.inlineBatch("orders", 0, 1000,
            List.of(update(1, row(1, "books", 5), 10, 1), update(1, row(2, "toys", 7), 20, -2)),
            List.of(new Contribution(0, 0L, 1000L, 2L)), registry);
    }

    /** Reads every inline part of {@code batch} into the latest version of {@code registry}, rows copied. */
    private static void readInline(Batch batch, SchemaRegistry registry, List<ReadUpdate> read) {
        PartReader reader = new PartReader(registry.latest("orders-value"));
        for (Part part : batch.getParts()) {
            reader.read(part, batch.getBatchId(), new InMemoryBlobStore(), registry,
                (row, time, diff) -> read.add(new ReadUpdate(copy(row), time, diff)));
        }
    }

    private static GenericRecord sameLayout(long quantity, String label, long price) {
        return new GenericRecordBuilder(TestUpdates.SAME_LAYOUT).set("quantity", quantity).set("label", label)
            .set("price", price).build();
    }

    private static GenericRecord v2(long id, String category, long amount) {
        GenericRecord row = new GenericData.Record(V2);
        row.put("id", id);
        row.put("category", category);
        row.put("amount", amount);
        row.put("region", "none");
        return row;
    }

    private static GenericRecord copy(GenericRecord row) {
        return GenericData.get().deepCopy(row.getSchema(), row);
    }
}
