package io.mvsink.cli;

import io.mvsink.read.Change;
import io.mvsink.read.ResumeToken;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * A subscription as one Avro object container file: its schema is the union of two records,
 * {@code io.mvsink.subscribe.Change {row: <the subject's row schema>, time: long, diff: long}} and
 * {@code io.mvsink.subscribe.Token {token: string}}, in the same order as {@link JsonLines}: a Change
 * per row of the snapshot (at its as-of time, diff its net count) and per change of each seal, a
 * Token after the snapshot and after each seal. The header is written at once and the file is
 * flushed after each Token, so a follower reads each seal as one block that ends with its token.
 * A reader that was killed drops the records after the last Token (an unfinished seal) and resumes
 * with that token; the resumed run writes a new file whose records are exactly the rest.
 *
 * <p>An Avro file has one schema: the row schema is the subject's version when the output opens.
 * If rows come in another schema (the subject got a newer version since), the seal is not written
 * and {@link SchemaChangedException} names the last token written: a resume from it writes a new
 * file in the newer schema.
 */
final class AvroChanges implements SubscribeCommand.Output {
    static final String NAMESPACE = "io.mvsink.subscribe";
    /** File metadata: the registry subject of the row schema. */
    static final String META_SUBJECT = "mvsink.subject";

    private final Schema rowSchema;
    private final DataFileWriter<GenericRecord> file;
    private final GenericData.Record change;
    private final GenericData.Record token;
    private Schema lastChecked;
    private ResumeToken written;

    /** Rows that are not in the schema the file was opened with. */
    static final class SchemaChangedException extends IllegalStateException {
        SchemaChangedException(String message) {
            super(message);
        }
    }

    /** Opens the file on {@code out} for rows in {@code rowSchema}, a version of {@code subject}, and writes its header. */
    AvroChanges(OutputStream out, String subject, Schema rowSchema) {
        this.rowSchema = rowSchema;
        Schema output = schema(rowSchema);
        this.change = new GenericData.Record(output.getTypes().get(0));
        this.token = new GenericData.Record(output.getTypes().get(1));
        this.file = new DataFileWriter<>(new GenericDatumWriter<>(output));
        file.setMeta(META_SUBJECT, subject);
        try {
            file.create(output, out);
            file.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Avro header to the output", e);
        }
    }

    /** The file's schema for rows of {@code rowSchema}: the union [Change, Token]. */
    static Schema schema(Schema rowSchema) {
        Schema change = SchemaBuilder.record("Change").namespace(NAMESPACE)
            .doc("one change: the row, its time (epoch ms) and its diff (net multiplicity, never 0)").fields()
            .name("row").type(rowSchema).noDefault()
            .requiredLong("time")
            .requiredLong("diff")
            .endRecord();
        Schema token = SchemaBuilder.record("Token").namespace(NAMESPACE)
            .doc("after the snapshot and after each seal: --resume this token (<consensus topic>/<shard>/<seqno>:<upper>) to continue").fields()
            .requiredString("token")
            .endRecord();
        return Schema.createUnion(change, token);
    }

    @Override
    public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
        seal(rows, token);
    }

    @Override
    public void seal(List<Change> changes, ResumeToken next) {
        changes.forEach(c -> requireRowSchema(c.record().getSchema()));
        try {
            for (Change c : changes) {
                change.put("row", c.record());
                change.put("time", c.time());
                change.put("diff", c.diff());
                file.append(change);
            }
            token.put("token", next.toString());
            file.append(token);
            file.flush();
            written = next;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the seal up to token " + next + " to the output", e);
        }
    }

    private void requireRowSchema(Schema schema) {
        if (schema == lastChecked) {
            return;
        }
        if (!schema.equals(rowSchema)) {
            throw new SchemaChangedException("the rows now come in another schema than the one this Avro output "
                + "was opened with (the subject has a newer version): an Avro file has one schema, so the output "
                + "ends " + (written == null ? "before its first token: start again"
                : "after token " + written + ": run again with --resume " + written) + " to write the rest in the "
                + "newer schema");
        }
        lastChecked = schema;
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the Avro output", e);
        }
    }
}
