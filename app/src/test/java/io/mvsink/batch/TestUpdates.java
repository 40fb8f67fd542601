package io.mvsink.batch;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.time.TimeRange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.utils.Time;

/** Rows of {@link Workload#ROW_SCHEMA} as updates, and parts read back as updates, for batch tests. */
public final class TestUpdates {
    private TestUpdates() {
    }

    /** {@link Workload#ROW_SCHEMA} and a field with a default: a backward-compatible version 2. */
    public static final Schema ROW_V2 = org.apache.avro.SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount")
        .name("region").type().stringType().stringDefault("none").endRecord();

    /**
     * {@link Workload#ROW_SCHEMA}'s layout (long, string, long) under other names: the bytes of a row
     * of one decode as a row of the other, a wrong one. What a registry restored with other ids may
     * give the id of a v1 row.
     */
    public static final Schema SAME_LAYOUT = org.apache.avro.SchemaBuilder.record("Row").namespace("io.mvsink.demo")
        .fields().requiredLong("quantity").requiredString("label").requiredLong("price").endRecord();

    /** Avro's 64-bit Rabin fingerprint of the schema's parsing canonical form, as 16 hex digits. */
    public static String fingerprint(Schema schema) {
        return String.format("%016x", SchemaNormalization.parsingFingerprint64(schema));
    }

    /**
     * A batch of shard {@code shard} holding {@code updates}, written inline by a real
     * {@link BatchWriter} (it writes no blob) with the writer schemas {@code registry} gives their ids.
     */
    public static Batch inlineBatch(String shard, long lower, long upper, List<Update> updates,
                                    List<Contribution> contributions, SchemaRegistry registry) {
        InMemoryBlobStore blobs = new InMemoryBlobStore();
        BatchWriter writer = new BatchWriter(shard, lower, upper, UUID.randomUUID().toString(),
            new ShardSink(shard, shard + "/", "test", new ShardMetrics(shard), 1 << 16), Time.SYSTEM);
        writer.add(new ContributionData(shard, 0, new TimeRange(lower, upper), updates, 0L), registry, new PartEncoder("null", 1 << 20),
            blobs);
        Batch batch = writer.finish(blobs, contributions, 0L);
        if (blobs.writeRequests() != 0 || batch.getParts().stream().anyMatch(p -> p.getInline() == null)) {
            throw new IllegalStateException("the batch was not written inline: " + batch);
        }
        return batch;
    }

    /** An update as read back from a part: the row decoded. */
    public record ReadUpdate(GenericRecord row, long time, long diff) {
    }

    public static GenericRecord row(long id, String category, long amount) {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", category);
        row.put("amount", amount);
        return row;
    }

    /** The Avro binary of {@code row} (no wire-format header). */
    public static byte[] binary(GenericRecord row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            new GenericDatumWriter<GenericRecord>(row.getSchema()).write(row, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static Update update(int schemaId, GenericRecord row, long time, long diff) {
        return new Update(time, schemaId, binary(row), diff);
    }

    /** What {@code updates} should read back as, with rows decoded with {@code rowSchema}. */
    public static List<ReadUpdate> expected(List<GenericRecord> rows, List<Update> updates) {
        List<ReadUpdate> expected = new ArrayList<>();
        for (int i = 0; i < updates.size(); i++) {
            expected.add(new ReadUpdate(rows.get(i), updates.get(i).time(), updates.get(i).diff()));
        }
        return expected;
    }

    /** Every update of one part (an Avro container file), in file order. */
    public static List<ReadUpdate> read(byte[] part) {
        List<ReadUpdate> updates = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader =
                 new DataFileReader<>(new SeekableByteArrayInput(part), new GenericDatumReader<>())) {
            for (GenericRecord u : reader) {
                updates.add(new ReadUpdate((GenericRecord) u.get("row"), (Long) u.get("time"), (Long) u.get("diff")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return updates;
    }

    /** The file metadata of one part. */
    public static String meta(byte[] part, String key) {
        try (DataFileReader<GenericRecord> reader =
                 new DataFileReader<>(new SeekableByteArrayInput(part), new GenericDatumReader<>())) {
            return reader.getMetaString(key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The writer schema of one part. */
    public static Schema schema(byte[] part) {
        try (DataFileReader<GenericRecord> reader =
                 new DataFileReader<>(new SeekableByteArrayInput(part), new GenericDatumReader<>())) {
            return reader.getSchema();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
