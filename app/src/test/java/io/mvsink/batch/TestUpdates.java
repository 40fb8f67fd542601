package io.mvsink.batch;

import io.mvsink.produce.Workload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Rows of {@link Workload#ROW_SCHEMA} as updates, and parts read back as updates, for batch tests. */
public final class TestUpdates {
    private TestUpdates() {
    }

    /** {@link Workload#ROW_SCHEMA} and a field with a default: a backward-compatible version 2. */
    public static final Schema ROW_V2 = org.apache.avro.SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount")
        .name("region").type().stringType().stringDefault("none").endRecord();

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
