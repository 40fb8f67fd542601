package io.mvsink.batch;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobStore;
import io.mvsink.registry.SchemaRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Time;

/**
 * Writes one batch's parts: contributions are encoded as they come, a part is written to blob
 * storage as soon as it fills, and the totals are running sums, so adding a contribution costs
 * O(its size). Used by one builder thread at a time; it decides nothing about the batch's
 * lifecycle (that is {@code protocol.SharedBuilder}'s).
 *
 * <p>A batch whose encoded updates total at most the shard's {@code inlineMaxBytes} (and that has
 * not written a part yet: a part is written once it reaches the encoder's target) writes no blob:
 * its parts carry their updates inline ({@code Part.inline}) and go into consensus with the batch,
 * each keyed by its writer schema's fingerprint ({@link InlinePartKey}).
 */
public final class BatchWriter {
    private final String shard;
    private final long lower;
    private final long upper;
    private final String batchId;
    private final ShardSink sink;
    private final Time time;
    private final Map<Integer, PartWriter> openParts = new LinkedHashMap<>();
    private final Set<Integer> schemaIds = new LinkedHashSet<>();
    private final List<Part> parts = new ArrayList<>();
    /** The clock just before the first part write began; 0 until then. */
    private long firstWriteAtMs;
    private long bytes;
    private long updates;

    public BatchWriter(String shard, long lower, long upper, String batchId, ShardSink sink, Time time) {
        this.shard = shard;
        this.lower = lower;
        this.upper = upper;
        this.batchId = batchId;
        this.sink = sink;
        this.time = time;
    }

    /** Encodes one contribution, writing every part that fills up. */
    public void add(ContributionData c, SchemaRegistry schemas, PartEncoder encoder, BlobStore blobs) {
        for (Update u : c.updates()) {
            PartWriter writer = openParts.get(u.schemaId());
            if (writer == null) {
                writer = encoder.open(schemas.schemaById(u.schemaId()), meta(u.schemaId()),
                    parts.isEmpty() ? sink.inlineMaxBytes() : 0);
                openParts.put(u.schemaId(), writer);
                schemaIds.add(u.schemaId());
            }
            writer.add(u);
            updates++;
            if (writer.bytes() >= encoder.targetBytes()) {
                write(u.schemaId(), writer, blobs);
                openParts.remove(u.schemaId());
            }
        }
    }

    /**
     * Writes the open parts and describes the batch, after the last add.
     *
     * @param contributions what each participant contributed, in the order they joined
     * @param closedAtMs when the last of them closed its range
     */
    public Batch finish(BlobStore blobs, List<Contribution> contributions, long closedAtMs) {
        return finish(blobs, contributions, closedAtMs, true);
    }

    /**
     * As {@link #finish(BlobStore, List, long)}; {@code mayInline} false writes every part as a blob,
     * however small the batch.
     */
    public Batch finish(BlobStore blobs, List<Contribution> contributions, long closedAtMs, boolean mayInline) {
        if (!mayInline || !inline()) {
            for (Map.Entry<Integer, PartWriter> open : openParts.entrySet()) {
                write(open.getKey(), open.getValue(), blobs);
            }
        }
        openParts.clear();
        return Batch.newBuilder()
            .setBatchId(batchId).setShard(shard).setLower(lower).setUpper(upper)
            .setSchemaIds(new ArrayList<>(schemaIds)).setContributions(new ArrayList<>(contributions))
            .setParts(parts).setUpdates(updates).setBytes(bytes).setClosedAtMs(closedAtMs)
            .build();
    }

    /**
     * Stores the open parts inline if no part was written and they total at most the shard's
     * inline limit; true if it did (or there is nothing to store).
     */
    private boolean inline() {
        if (!parts.isEmpty()) {
            return false;
        }
        List<Part> inline = new ArrayList<>();
        long total = 0;
        for (Map.Entry<Integer, PartWriter> open : openParts.entrySet()) {
            byte[] updatesBytes = open.getValue().inline().orElse(null);
            if (updatesBytes == null) {
                return false;
            }
            total += updatesBytes.length;
            inline.add(new Part(open.getValue().inlineKey(), open.getKey(), (long) updatesBytes.length, open.getValue().updates(),
                ByteBuffer.wrap(updatesBytes)));
        }
        if (total > sink.inlineMaxBytes()) {
            return false;
        }
        parts.addAll(inline);
        bytes += total;
        return true;
    }

    /** The clock just before the first part write began; 0 if none began. */
    public long firstWriteAtMs() {
        return firstWriteAtMs;
    }

    private void write(int schemaId, PartWriter writer, BlobStore blobs) {
        PartEncoder.EncodedPart part = writer.finish();
        String blobKey = BlobKeys.part(sink.keyPrefix(), lower, upper, batchId, parts.size());
        if (firstWriteAtMs == 0) {
            // taken before the write: the blob's last-modified time is not earlier (the GC's age bound rests on it)
            firstWriteAtMs = time.milliseconds();
        }
        blobs.putIfAbsent(blobKey, part.bytes(), sink.owner());
        sink.metrics().partWritten(part.bytes().length);
        parts.add(new Part(blobKey, schemaId, (long) part.bytes().length, part.updates(), null));
        bytes += part.bytes().length;
    }

    private Map<String, String> meta(int schemaId) {
        Map<String, String> meta = new HashMap<>();
        meta.put(PartEncoder.META_SCHEMA_ID, Integer.toString(schemaId));
        meta.put(PartEncoder.META_SHARD, shard);
        meta.put(PartEncoder.META_LOWER, Long.toString(lower));
        meta.put(PartEncoder.META_UPPER, Long.toString(upper));
        meta.put(PartEncoder.META_BATCH, batchId);
        return meta;
    }
}
