package io.mvsink.cli;

import static io.mvsink.batch.TestUpdates.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.batch.TestUpdates;
import io.mvsink.produce.Workload;
import io.mvsink.read.Change;
import io.mvsink.read.ResumeToken;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class AvroChangesTest {
    private static final GenericRecord BOOK = row(1, "books", 5);
    private static final GenericRecord TOY = row(2, "toys", 7);
    /** A Token record as {@link #records} renders it, before the seqno and upper. */
    private static final String TOKEN = "token orders-consensus/orders/";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void shouldWriteTheSnapshotAndEachSealAsChangeRecordsEachFollowedByItsTokenInOneContainerFile() throws IOException {
        try (AvroChanges avro = new AvroChanges(out, "orders-value", Workload.ROW_SCHEMA)) {
            avro.snapshot(499, List.of(change(BOOK, 499, 2), change(TOY, 499, 1)), token(2, 500));
            avro.seal(List.of(change(TOY, 600, -1), change(BOOK, 700, 3)), token(3, 1000));
            avro.seal(List.of(), token(4, 2000));
        }

        assertEquals(List.of(BOOK + " 499 2", TOY + " 499 1", TOKEN + "2:500", TOY + " 600 -1", BOOK + " 700 3",
            TOKEN + "3:1000", TOKEN + "4:2000"), records(out.toByteArray()));
    }

    @Test
    void shouldDescribeItsRowsInTheFileSoPlainAvroToolingReadsThem() throws IOException {
        new AvroChanges(out, "orders-value", Workload.ROW_SCHEMA).close();

        try (DataFileStream<GenericRecord> file = new DataFileStream<>(new ByteArrayInputStream(out.toByteArray()),
                new GenericDatumReader<>())) {
            Schema schema = file.getSchema();
            assertEquals(List.of("io.mvsink.subscribe.Change", "io.mvsink.subscribe.Token"),
                schema.getTypes().stream().map(Schema::getFullName).toList());
            assertEquals(Workload.ROW_SCHEMA, schema.getTypes().get(0).getField("row").schema());
            assertEquals("orders-value", file.getMetaString(AvroChanges.META_SUBJECT));
            assertFalse(file.hasNext(), "no records before the first token");
        }
    }

    @Test
    void shouldFlushEachSealWithItsTokenSoAFollowerReadsItBeforeTheNextSeal() throws IOException {
        AvroChanges avro = new AvroChanges(out, "orders-value", Workload.ROW_SCHEMA);
        assertEquals(List.of(), records(out.toByteArray()), "the header is readable at once");

        avro.snapshot(499, List.of(change(BOOK, 499, 1)), token(2, 500));
        assertEquals(List.of(BOOK + " 499 1", TOKEN + "2:500"), records(out.toByteArray()));

        avro.seal(List.of(change(TOY, 600, 1)), token(3, 1000));
        assertEquals(List.of(BOOK + " 499 1", TOKEN + "2:500", TOY + " 600 1", TOKEN + "3:1000"),
            records(out.toByteArray()), "without closing the writer");
    }

    @Test
    void shouldEndBeforeASealWhoseRowsComeInANewerSchemaNamingTheTokenToResumeFrom() throws IOException {
        AvroChanges avro = new AvroChanges(out, "orders-value", Workload.ROW_SCHEMA);
        avro.snapshot(499, List.of(change(BOOK, 499, 1)), token(2, 500));
        GenericRecord inV2 = new GenericData.Record(TestUpdates.ROW_V2);
        Workload.ROW_SCHEMA.getFields().forEach(f -> inV2.put(f.name(), TOY.get(f.name())));
        inV2.put("region", "eu");

        AvroChanges.SchemaChangedException e = assertThrows(AvroChanges.SchemaChangedException.class,
            () -> avro.seal(List.of(change(BOOK, 600, 1), change(inV2, 700, 1)), token(3, 1000)));
        avro.close();

        assertTrue(e.getMessage().contains("--resume orders-consensus/orders/2:500"), e.getMessage());
        assertEquals(List.of(BOOK + " 499 1", TOKEN + "2:500"), records(out.toByteArray()),
            "nothing of the refused seal is written");
    }

    private static ResumeToken token(long seqno, long upper) {
        return new ResumeToken("orders-consensus", "orders", seqno, upper);
    }

    private static Change change(GenericRecord row, long time, long diff) {
        return new Change(GenericData.get().toString(row), time, diff, row);
    }

    /** The file's records as DataFileStream reads them: "row time diff" per change, "token T" per token. */
    private static List<String> records(byte[] bytes) throws IOException {
        List<String> records = new ArrayList<>();
        try (DataFileStream<GenericRecord> file = new DataFileStream<>(new ByteArrayInputStream(bytes),
                new GenericDatumReader<>())) {
            for (GenericRecord record : file) {
                records.add(record.getSchema().getName().equals("Token") ? "token " + record.get("token")
                    : record.get("row") + " " + record.get("time") + " " + record.get("diff"));
            }
        }
        return records;
    }
}
