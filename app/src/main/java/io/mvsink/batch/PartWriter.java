package io.mvsink.batch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * One part being written: an Avro object container file of {@code (row, time, diff)}. Rows are
 * copied as the Avro binary they arrived in. Adding an update costs O(its size): the byte and
 * update counts are running totals. Not thread-safe.
 *
 * <p>While the part holds at most {@code inlineLimit} bytes of encoded updates it also keeps them
 * as they are, one record after the other ({@link #inline()}): a batch that small is stored inline
 * in consensus instead of as a blob.
 */
public final class PartWriter {
    private static final int DEFAULT_SYNC_INTERVAL = 64_000;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>());
    private final ByteArrayOutputStream datum = new ByteArrayOutputStream(256);
    private final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(datum, null);
    private final Schema rowSchema;
    private final long inlineLimit;
    private ByteArrayOutputStream inline;
    private long bytes;
    private long updates;

    PartWriter(CodecFactory codec, Schema rowSchema, Map<String, String> meta, long targetBytes, long inlineLimit) {
        this.rowSchema = rowSchema;
        this.inlineLimit = inlineLimit;
        this.inline = inlineLimit > 0 ? new ByteArrayOutputStream((int) Math.min(inlineLimit, 1024)) : null;
        try {
            writer.setCodec(codec);
            // a block never needs to be larger than the part: small parts get small buffers
            writer.setSyncInterval((int) Math.max(32, Math.min(DEFAULT_SYNC_INTERVAL, targetBytes)));
            meta.forEach(writer::setMeta);
            writer.create(PartEncoder.updateSchema(rowSchema), out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a part", e);
        }
    }

    public void add(Update update) {
        byte[] encoded;
        try {
            datum.reset();
            encoder.writeFixed(update.row());
            encoder.writeLong(update.time());
            encoder.writeLong(update.diff());
            encoder.flush();
            encoded = datum.toByteArray();
            writer.appendEncoded(ByteBuffer.wrap(encoded));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode an update", e);
        }
        bytes += datum.size();
        updates++;
        if (inline != null) {
            if (bytes > inlineLimit) {
                inline = null;
            } else {
                inline.writeBytes(encoded);
            }
        }
    }

    /** Encoded bytes of the updates added so far (before compression). */
    public long bytes() {
        return bytes;
    }

    public long updates() {
        return updates;
    }

    /**
     * The encoded updates, one Avro record after the other, if they total at most the inline limit
     * it was opened with; empty otherwise (or if that limit is 0).
     */
    public Optional<byte[]> inline() {
        return inline == null ? Optional.empty() : Optional.of(inline.toByteArray());
    }

    /**
     * The key of the part when it is stored {@link #inline()}: the fingerprint of the row schema it
     * was opened with ({@link InlinePartKey}), which readers check against the registry's schema of
     * the part's id.
     */
    public String inlineKey() {
        return InlinePartKey.of(rowSchema);
    }

    /** Closes the container file and returns it. */
    public PartEncoder.EncodedPart finish() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot finish a part", e);
        }
        return new PartEncoder.EncodedPart(out.toByteArray(), updates);
    }
}
