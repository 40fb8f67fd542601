package io.mvsink.codec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the stored-format fixtures of {@link StoredFixturesTest} (bytes and their writer schema).
 * Run once per schema version with the repository root or app/ as working directory; never
 * overwrite a committed fixture: add a new version next to it instead.
 */
final class FixtureWriter {
    private FixtureWriter() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "app/src/test/resources/fixtures");
        Files.createDirectories(dir);
        // v1 of StateDiff, BatchReport, TaskProgress and AppenderState were written by earlier versions of this
        // class; what is written now (one file per type and version, never overwritten) is today's:
        // (StateDiff-v2, AppenderState-v2 and StateRollup-v1 too, before the location field; StateDiff-v3,
        // BatchReport-v2 and StateRollup-v2 before Part.inline and framing, Batch-v1 cut out of BatchReport-v2)
        write(dir, "StateDiff-v4", Codecs.STATE_DIFF.encode(StoredValues.stateDiff()), Codecs.STATE_DIFF);
        write(dir, "AppenderState-v3", Codecs.APPENDER_STATE.encode(StoredValues.appenderState()), Codecs.APPENDER_STATE);
        write(dir, "BatchReport-v3", Codecs.REPORT.encode(StoredValues.report()), Codecs.REPORT);
        write(dir, "StateRollup-v3", Codecs.STATE_ROLLUP.encode(StoredValues.stateRollup()), Codecs.STATE_ROLLUP);
        write(dir, "Batch-v2", Codecs.BATCH.encode(StoredValues.batch()), Codecs.BATCH);
    }

    private static void write(Path dir, String name, byte[] bytes, SpecificCodec<?> codec) throws IOException {
        if (Files.exists(dir.resolve(name + ".bin"))) {
            return;
        }
        Files.write(dir.resolve(name + ".bin"), bytes);
        Files.writeString(dir.resolve(name + ".avsc"), codec.schema().toString(true) + "\n");
    }
}
