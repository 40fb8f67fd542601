package io.mvsink.batch;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.BlobWriteFailedException;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SoloBatchBuilderTest {
    private static final Schema ROW_V2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount").optionalString("note").endRecord();

    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final int schemaId = registry.register("orders-value", Workload.ROW_SCHEMA);
    private final ShardMetrics metrics = new ShardMetrics("orders");
    private final List<SoloBatchBuilder> builders = new ArrayList<>();

    @AfterEach
    void closeBuilders() {
        builders.forEach(SoloBatchBuilder::close);
    }

    @Test
    void shouldDeliverABatchWhosePartsAreInTheBlobStore() throws Exception {
        List<GenericRecord> rows = List.of(row(1, "books", 5), row(2, "toys", 7), row(1, "books", 5));
        List<Update> updates = List.of(update(schemaId, rows.get(0), 1000, 2), update(schemaId, rows.get(1), 1500, -1),
            update(schemaId, rows.get(2), 1999, 1));

        Batch batch = await(builder(new PartEncoder("deflate", 1 << 20), 2, 4)
            .offer(new ContributionData("orders", 3, 1000, 2000, updates, 42L)).orElseThrow());

        assertEquals("orders", batch.getShard());
        assertEquals(1000L, batch.getLower());
        assertEquals(2000L, batch.getUpper());
        assertEquals(List.of(schemaId), batch.getSchemaIds());
        assertEquals(List.of(new Contribution(3, 1000L, 2000L, 3L)), batch.getContributions());
        assertEquals(3L, batch.getUpdates());
        assertEquals(42L, batch.getClosedAtMs());
        assertEquals(1, batch.getParts().size());
        Part part = batch.getParts().get(0);
        byte[] stored = blobs.get(part.getKey());
        assertTrue(part.getKey().startsWith("orders/"), part.getKey());
        assertEquals(stored.length, part.getBytes());
        assertEquals(stored.length, batch.getBytes());
        assertEquals(3L, part.getUpdates());
        assertEquals(Integer.toString(schemaId), TestUpdates.meta(stored, PartEncoder.META_SCHEMA_ID));
        assertEquals(batch.getBatchId(), TestUpdates.meta(stored, PartEncoder.META_BATCH));
        assertEquals(TestUpdates.expected(rows, updates), TestUpdates.read(stored));
        assertEquals(1, metrics.partsWritten());
    }

    @Test
    void shouldWriteOnePartPerSchemaTaggedWithItsOwnId() throws Exception {
        int v2 = registry.register("orders-value", ROW_V2);
        GenericRecord newer = new GenericData.Record(ROW_V2);
        newer.put("id", 9L);
        newer.put("category", "tools");
        newer.put("amount", 1L);
        newer.put("note", "v2");
        List<Update> updates = List.of(update(schemaId, row(1, "books", 5), 1000, 1), update(v2, newer, 1000, 1));

        Batch batch = await(builder(new PartEncoder("null", 1 << 20), 1, 4)
            .offer(new ContributionData("orders", 0, 1000, 2000, updates, 0L)).orElseThrow());

        assertEquals(List.of(schemaId, v2), batch.getSchemaIds());
        assertEquals(2, batch.getParts().size());
        for (Part part : batch.getParts()) {
            byte[] stored = blobs.get(part.getKey());
            assertEquals(Integer.toString(part.getSchemaId()), TestUpdates.meta(stored, PartEncoder.META_SCHEMA_ID));
            assertEquals(1, TestUpdates.read(stored).size());
        }
        assertEquals(newer, TestUpdates.read(blobs.get(batch.getParts().get(1).getKey())).get(0).row());
    }

    @Test
    void shouldSplitALargeContributionIntoPartsThatHoldEveryUpdate() throws Exception {
        List<GenericRecord> rows = new ArrayList<>();
        List<Update> updates = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row(i, "c" + i, i));
            updates.add(update(schemaId, rows.get(i), 1000 + i, 1));
        }

        Batch batch = await(builder(new PartEncoder("null", 1024), 1, 4)
            .offer(new ContributionData("orders", 0, 1000, 2000, updates, 0L)).orElseThrow());

        assertTrue(batch.getParts().size() > 1, "parts: " + batch.getParts().size());
        List<TestUpdates.ReadUpdate> read = new ArrayList<>();
        for (Part part : batch.getParts()) {
            read.addAll(TestUpdates.read(blobs.get(part.getKey())));
        }
        assertEquals(TestUpdates.expected(rows, updates), read);
        assertEquals(300L, batch.getParts().stream().mapToLong(Part::getUpdates).sum());
        assertEquals(batch.getParts().size(), batch.getParts().stream().map(Part::getKey).distinct().count());
    }

    @Test
    void shouldDeliverAnEmptyBatchForAnEmptyContribution() throws Exception {
        Batch batch = await(builder(new PartEncoder("deflate", 1024), 1, 4)
            .offer(new ContributionData("orders", 1, 0, 1000, List.of(), 0L)).orElseThrow());

        assertEquals(List.of(), batch.getParts());
        assertEquals(List.of(new Contribution(1, 0L, 1000L, 0L)), batch.getContributions());
        assertEquals(List.of(), blobs.list(""));
    }

    @Test
    void shouldFailTheFutureWhenAPartCannotBeWritten() {
        blobs.failNextWrites(1, false);

        CompletableFuture<Batch> future = builder(new PartEncoder("deflate", 1024), 1, 4)
            .offer(new ContributionData("orders", 0, 0, 1000, List.of(update(schemaId, row(1, "a", 1), 5, 1)), 0L))
            .orElseThrow();

        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
        assertInstanceOf(BlobWriteFailedException.class, e.getCause());
        assertEquals(1, metrics.batchesFailed());
        assertEquals(List.of(), blobs.list(""));
    }

    @Test
    void shouldRefuseAnOfferWithoutBlockingWhenTheQueueIsFull() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstPutStarted = new CountDownLatch(1);
        SoloBatchBuilder builder = new SoloBatchBuilder(new HeldBlobStore(blobs, firstPutStarted, release), registry,
            new PartEncoder("deflate", 1024), "orders/", metrics, 1, 1);
        builders.add(builder);
        ContributionData contribution =
            new ContributionData("orders", 0, 0, 1000, List.of(update(schemaId, row(1, "a", 1), 5, 1)), 0L);

        CompletableFuture<Batch> running = builder.offer(contribution).orElseThrow();
        assertTrue(firstPutStarted.await(10, TimeUnit.SECONDS), "the builder thread never reached the blob store");
        CompletableFuture<Batch> queued = builder.offer(contribution).orElseThrow();
        assertEquals(1, builder.queueDepth());

        Optional<CompletableFuture<Batch>> refused =
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> builder.offer(contribution));

        assertTrue(refused.isEmpty());
        assertEquals(1, metrics.builderRefusals());
        release.countDown();
        assertTrue(await(running).getBatchId() != null);
        assertTrue(await(queued).getBatchId() != null);
        assertTrue(builder.offer(contribution).isPresent(), "a drained builder accepts again");
    }

    private SoloBatchBuilder builder(PartEncoder encoder, int threads, int capacity) {
        SoloBatchBuilder builder = new SoloBatchBuilder(blobs, registry, encoder, "orders/", metrics, threads, capacity);
        builders.add(builder);
        return builder;
    }

    private static Batch await(CompletableFuture<Batch> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    /** A blob store whose writes wait until the test releases them. */
    private static final class HeldBlobStore implements BlobStore {
        private final BlobStore delegate;
        private final CountDownLatch started;
        private final CountDownLatch release;

        HeldBlobStore(BlobStore delegate, CountDownLatch started, CountDownLatch release) {
            this.delegate = delegate;
            this.started = started;
            this.release = release;
        }

        @Override
        public void putIfAbsent(String key, byte[] data) {
            started.countDown();
            try {
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("test never released the write of " + key);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            delegate.putIfAbsent(key, data);
        }

        @Override
        public byte[] get(String key) {
            return delegate.get(key);
        }

        @Override
        public boolean delete(String key) {
            return delegate.delete(key);
        }

        @Override
        public List<BlobInfo> list(String prefix) {
            return delegate.list(prefix);
        }

        @Override
        public long writeRequests() {
            return delegate.writeRequests();
        }

        @Override
        public long bytesWritten() {
            return delegate.bytesWritten();
        }

        @Override
        public void close() {
        }
    }
}
