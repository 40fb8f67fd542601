package io.mvsink.batch;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobStore;
import io.mvsink.registry.SchemaRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.utils.Time;

/**
 * One shared batch of one {@code (shard, lower, upper)}: the participants' handles (the
 * registry's lock guards them and the lifecycle) and the part writers (touched only by the one
 * builder thread that drains this builder's work at a time). Adding a contribution costs O(its
 * size): parts are cut and written as they fill, and the totals are running sums.
 */
final class SharedBuilder {
    /** Lifecycle: OPEN → CLOSED → FINISHED → DELIVERED, or → FAILED, or FINISHED → DROPPED. */
    enum State { OPEN, CLOSED, FINISHED, DELIVERED, FAILED, DROPPED }

    /** The marker after the last contribution: write the open parts and describe the batch. */
    static final Object FINALIZE = new Object();

    record Key(String shard, long lower, long upper) {
    }

    final Key key;
    final ShardSink sink;
    final String batchId = UUID.randomUUID().toString();
    final long openedAtMs;
    private final Time time;
    /** The clock just before the first part write began; 0 until then. Builder thread only. */
    private long firstWriteAtMs;
    long lastActivityMs;
    State state = State.OPEN;
    final List<Handle> handles = new ArrayList<>();
    final Set<Integer> joined = new HashSet<>();
    final ArrayDeque<Object> work = new ArrayDeque<>();
    boolean draining;
    /** Participants answered {@link Outcome.Covered} (under the registry's lock). */
    int coveredAnswers;
    Batch batch;
    String failure;

    private final Map<Integer, PartWriter> openParts = new LinkedHashMap<>();
    private final Map<Integer, Boolean> schemaIds = new LinkedHashMap<>();
    private final List<Part> parts = new ArrayList<>();
    private long bytes;
    private long updates;

    SharedBuilder(Key key, ShardSink sink, Time time) {
        this.key = key;
        this.sink = sink;
        this.time = time;
        this.openedAtMs = time.milliseconds();
    }

    /** Encodes one contribution, writing every part that fills up. Builder thread only. */
    void add(ContributionData c, SchemaRegistry schemas, PartEncoder encoder, BlobStore blobs) {
        for (Update u : c.updates()) {
            PartWriter writer = openParts.get(u.schemaId());
            if (writer == null) {
                writer = encoder.open(schemas.schemaById(u.schemaId()), meta(u.schemaId()));
                openParts.put(u.schemaId(), writer);
                schemaIds.put(u.schemaId(), true);
            }
            writer.add(u);
            updates++;
            if (writer.bytes() >= encoder.targetBytes()) {
                write(u.schemaId(), writer, blobs);
                openParts.remove(u.schemaId());
            }
        }
    }

    /** Writes the open parts and describes the batch. Builder thread only, after the last add. */
    Batch finish(BlobStore blobs) {
        for (Map.Entry<Integer, PartWriter> open : openParts.entrySet()) {
            write(open.getKey(), open.getValue(), blobs);
        }
        openParts.clear();
        List<Contribution> contributions = new ArrayList<>(handles.size());
        long closedAt = 0;
        for (Handle h : handles) {
            ContributionData c = h.contribution;
            contributions.add(new Contribution(c.partition(), c.lower(), c.upper(), (long) c.updates().size()));
            closedAt = Math.max(closedAt, c.closedAtMs());
        }
        return Batch.newBuilder()
            .setBatchId(batchId).setShard(key.shard()).setLower(key.lower()).setUpper(key.upper())
            .setSchemaIds(new ArrayList<>(schemaIds.keySet())).setContributions(contributions)
            .setParts(parts).setUpdates(updates).setBytes(bytes).setClosedAtMs(closedAt)
                        .build();
    }

    private void write(int schemaId, PartWriter writer, BlobStore blobs) {
        PartEncoder.EncodedPart part = writer.finish();
        String blobKey = BlobKeys.part(sink.keyPrefix(), key.lower(), key.upper(), batchId, parts.size());
        if (firstWriteAtMs == 0) {
            // taken before the write: the blob's last-modified time is not earlier (the GC's age bound rests on it)
            firstWriteAtMs = time.milliseconds();
        }
        blobs.putIfAbsent(blobKey, part.bytes(), sink.owner());
        sink.metrics().partWritten(part.bytes().length);
        parts.add(new Part(blobKey, schemaId, (long) part.bytes().length, part.updates()));
        bytes += part.bytes().length;
    }

    private Map<String, String> meta(int schemaId) {
        Map<String, String> meta = new HashMap<>();
        meta.put(PartEncoder.META_SCHEMA_ID, Integer.toString(schemaId));
        meta.put(PartEncoder.META_SHARD, key.shard());
        meta.put(PartEncoder.META_LOWER, Long.toString(key.lower()));
        meta.put(PartEncoder.META_UPPER, Long.toString(key.upper()));
        meta.put(PartEncoder.META_BATCH, batchId);
        return meta;
    }

    /** The clock just before the first part write began; 0 if none began. */
    long firstWriteAtMs() {
        return firstWriteAtMs;
    }

    boolean allResolved() {
        for (Handle h : handles) {
            if (!h.resolved) {
                return false;
            }
        }
        return true;
    }
}
