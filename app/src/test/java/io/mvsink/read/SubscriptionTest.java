package io.mvsink.read;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.batch.TestUpdates;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.codec.Codecs;
import io.mvsink.consensus.ConsensusKeys;
import io.mvsink.consensus.ShardFollower;
import io.mvsink.consensus.ShardState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SubscriptionTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final GenericRecord BOOK = row(1, "books", 5);
    private static final GenericRecord TOY = row(2, "toys", 7);
    private static final GenericRecord GAME = row(3, "games", 9);

    private final ShardFixture shard = new ShardFixture();
    private final int id = shard.schemaId;
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private final List<String> out = new ArrayList<>();
    private final Subscription.Listener listener = new Subscription.Listener() {
        @Override
        public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
            rows.forEach(c -> out.add(c.row() + " " + asOf + " " + c.diff()));
            out.add(token.toString());
        }

        @Override
        public void seal(List<Change> changes, ResumeToken token) {
            changes.forEach(c -> out.add(c.row() + " " + c.time() + " " + c.diff()));
            out.add(token.toString());
        }
    };
    private ShardReader reader;
    private long offset;

    @AfterEach
    void close() {
        if (reader != null) {
            reader.close();
        }
        shard.close();
    }

    @Test
    void shouldDeliverTheSnapshotThenEachSealsChangesInTimeOrderWithATokenAfterEach() {
        twoSeals();
        Subscription subscription = open().subscribe(499, listener);
        assertEquals(List.of(json(BOOK) + " 499 1", "t/orders/2:500", json(TOY) + " 600 1", json(GAME) + " 1200 1",
            json(BOOK) + " 1500 -1", "t/orders/2:2000"), out, "the snapshot, then the seals already appended in one step");

        out.clear();
        send(ShardFixture.seal(3, 2000, 3000, shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1))),
            shard.build(1, 2000, 3000, List.of())));
        send(ShardFixture.seal(4, 3000, 4000, shard.build(0, 3000, 4000, List.of()), shard.build(1, 3000, 4000, List.of())));
        subscription.poll(Duration.ZERO);

        assertEquals(List.of(json(TOY) + " 2500 -1", "t/orders/3:3000", "t/orders/4:4000"), out);
        assertEquals(new ResumeToken("t", "orders", 4, 4000), subscription.position());
    }

    @Test
    void shouldGiveEachChangeAndSnapshotRowItsRowsAvroBinary() {
        twoSeals();
        List<Change> handed = new ArrayList<>();
        open().subscribe(999, new Subscription.Listener() {
            @Override
            public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
                handed.addAll(rows);
            }

            @Override
            public void seal(List<Change> changes, ResumeToken token) {
                handed.addAll(changes);
            }
        });

        assertEquals(4, handed.size(), "BOOK and TOY as of 999, then GAME at 1200 and BOOK at 1500: " + handed);
        for (Change change : handed) {
            assertEquals(java.nio.ByteBuffer.wrap(TestUpdates.binary(change.record())), change.rowBytes(),
                change.toString());
        }
    }

    @Test
    void shouldDeliverTheFirstSealOfAPollBeforeReadingTheLastSealsParts() {
        twoSeals();
        List<String> lastParts = new ArrayList<>();
        List<StateDiff> seals = new ArrayList<>();
        for (int s = 0; s < 6; s++) {
            long lower = 2000 + 1000L * s;
            Batch b0 = shard.build(0, lower, lower + 1000, List.of(update(id, row(10 + s, "seal" + s, s), lower + 1, 1)));
            Batch b1 = shard.build(1, lower, lower + 1000, List.of(update(id, row(20 + s, "seal" + s, s), lower + 2, 1)));
            seals.add(ShardFixture.seal(3 + s, lower, lower + 1000, b0, b1));
            lastParts.clear();
            List.of(b0, b1).forEach(b -> b.getParts().forEach(p -> lastParts.add(p.getKey())));
        }
        ReadLog reads = new ReadLog(shard.blobs);
        List<Boolean> lastReadAtFirstSeal = new ArrayList<>();
        Subscription subscription = open(reads).subscribe(1999, new Subscription.Listener() {
            @Override
            public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
                listener.snapshot(asOf, rows, token);
            }

            @Override
            public void seal(List<Change> changes, ResumeToken token) {
                if (lastReadAtFirstSeal.isEmpty()) {
                    lastReadAtFirstSeal.add(lastParts.stream().anyMatch(reads.keys()::contains));
                }
                listener.seal(changes, token);
            }
        });
        seals.forEach(this::send);
        out.clear();

        subscription.poll(Duration.ZERO);

        assertEquals(List.of(false), lastReadAtFirstSeal,
            "the last seal's parts were read before the first seal was delivered");
        assertEquals(List.of(json(row(10, "seal0", 0)) + " 2001 1", json(row(20, "seal0", 0)) + " 2002 1",
            "t/orders/3:3000"), out.subList(0, 3));
        assertEquals(18, out.size(), "six seals of two changes and a token each: " + out);
        assertEquals(new ResumeToken("t", "orders", 8, 8000), subscription.position());
    }

    @Test
    void shouldReadOnToASealThatCommitsWhileThePollDelivers() {
        Subscription subscription = sealThreeThenWhileAPollReadsIt(() -> send(ShardFixture.seal(4, 3000, 4000,
            shard.build(0, 3000, 4000, List.of(update(id, GAME, 3500, -1))), shard.build(1, 3000, 4000, List.of()))));

        subscription.poll(Duration.ZERO);

        assertEquals(List.of(json(TOY) + " 2500 -1", "t/orders/3:3000", json(GAME) + " 3500 -1", "t/orders/4:4000"),
            out, "seal 4 delivered by the same poll, not left for the next");
        assertEquals(new ResumeToken("t", "orders", 4, 4000), subscription.position());
    }

    @Test
    void shouldReadASealReadOnToIntoANewerVersionWhenItCarriesASchemaIdThePollHadNotSeen() {
        Subscription subscription = sealThreeThenWhileAPollReadsIt(() -> {
            int v2 = shard.registry.register("orders-value", TestUpdates.ROW_V2);
            send(ShardFixture.seal(4, 3000, 4000, shard.build(0, 3000, 4000,
                List.of(update(v2, inV2(GAME, "eu"), 3500, 1))), shard.build(1, 3000, 4000, List.of())));
        });

        subscription.poll(Duration.ZERO);

        assertEquals(List.of(json(TOY) + " 2500 -1", "t/orders/3:3000", json(inV2(GAME, "eu")) + " 3500 1",
            "t/orders/4:4000"), out, "seal 3 in the version the poll began with, seal 4 (written under v2) in v2");
    }

    @Test
    void shouldReadOnToASealThatCommitsWhileThePollWaitsForAPieceToBeRead() throws InterruptedException {
        twoSeals();
        Batch b3 = shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1)));
        Batch b4 = shard.build(0, 3000, 4000, List.of(update(id, GAME, 3500, -1)));
        CountDownLatch seal4Read = new CountDownLatch(1);
        List<Boolean> seal3WaitedForSeal4 = new ArrayList<>();
        // seal 3's part is read only once seal 4's is asked for (or 5 s have passed)
        BlobStore blobs = new ForwardingBlobStore(shard.blobs) {
            @Override
            public byte[] get(String key) {
                if (key.equals(b4.getParts().get(0).getKey())) {
                    seal4Read.countDown();
                } else if (key.equals(b3.getParts().get(0).getKey())) {
                    try {
                        seal3WaitedForSeal4.add(seal4Read.await(5, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.get(key);
            }
        };
        Subscription subscription = open(blobs).subscribe(1999, listener);
        send(ShardFixture.seal(3, 2000, 3000, b3, shard.build(1, 2000, 3000, List.of())));
        // the poll reads seal 3, looks for more before it waits for seal 3's read and finds none; seal 4 commits then
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(() -> send(ShardFixture.seal(4, 3000, 4000, b4, shard.build(1, 3000, 4000, List.of()))));
        out.clear();

        subscription.poll(Duration.ZERO);

        assertEquals(List.of(true), seal3WaitedForSeal4, "seal 4 was read while the poll waited for seal 3's read");
        assertEquals(List.of(json(TOY) + " 2500 -1", "t/orders/3:3000", json(GAME) + " 3500 -1", "t/orders/4:4000"),
            out);
    }

    @Test
    void shouldLeaveASealReadOnToAfterTheSinceOvertookThePollForTheNextPollToReport() {
        Subscription subscription = sealThreeThenWhileAPollReadsIt(() -> send(StateDiff.newBuilder(
            ShardFixture.seal(4, 3000, 4000, shard.build(0, 3000, 4000, List.of()), shard.build(1, 3000, 4000, List.of())))
            .setSince(3000L).build()));

        subscription.poll(Duration.ZERO);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> subscription.poll(Duration.ZERO),
            "seal 4, read while seal 3 was delivered, is neither lost nor delivered");

        assertEquals(List.of(json(TOY) + " 2500 -1", "t/orders/3:3000"), out);
        assertTrue(e.getMessage().contains("token t/orders/3:3000 is below the since of shard orders, 3000"),
            e.getMessage());
    }

    @Test
    void shouldReadASealAgainFromTheNewerStateWhenTheGcRemovedAPartAMergeRetired() {
        twoSeals();
        Subscription subscription = open().subscribe(1999, listener);
        Batch c0 = shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1)));
        Batch c1 = shard.build(1, 2000, 3000, List.of(update(id, GAME, 2999, 1)));
        Batch merged = ShardFixture.merged(shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1))),
            shard.build(1, 2000, 3000, List.of(update(id, GAME, 2999, 1))));
        StateDiff compaction = StateDiff.newBuilder(ShardFixture.seal(4, 3000, 3000, merged))
            .setRemovedBatchIds(List.of(c0.getBatchId(), c1.getBatchId())).build();
        delete(c0);
        // the first poll reads the seal only; the merge that replaced its batches commits after it
        consumer.schedulePollTask(() -> send(ShardFixture.seal(3, 2000, 3000, c0, c1)));
        consumer.schedulePollTask(() -> send(compaction));
        consumer.updateEndOffsets(Map.of(TP, 2L));
        out.clear();

        subscription.poll(Duration.ZERO);

        assertEquals(List.of(json(TOY) + " 2500 -1", json(GAME) + " 2999 1", "t/orders/3:3000"), out);
    }

    @Test
    void shouldFailNamingTheLastTokenWhenAPartIsGoneFromTheNewestState() {
        twoSeals();
        Subscription subscription = open().subscribe(1999, listener);
        Batch c0 = shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1)));
        send(ShardFixture.seal(3, 2000, 3000, c0, shard.build(1, 2000, 3000, List.of())));
        consumer.updateEndOffsets(Map.of(TP, 1L));
        delete(c0);

        SubscriptionLaggedException e = assertThrows(SubscriptionLaggedException.class,
            () -> subscription.poll(Duration.ZERO));

        assertTrue(e.getMessage().contains("resume from token t/orders/2:2000"), e.getMessage());
        assertTrue(e.getMessage().contains("gc.grace.ms"), e.getMessage());
        assertEquals(new ResumeToken("t", "orders", 2, 2000), subscription.position());
    }

    @Test
    void shouldStopNamingItsTokenWhenTheSinceOvertakesIt() {
        twoSeals();
        Subscription subscription = open().subscribe(1999, listener);
        send(StateDiff.newBuilder(ShardFixture.seal(3, 2000, 3000, shard.build(0, 2000, 3000, List.of()),
            shard.build(1, 2000, 3000, List.of()))).setSince(2000L).build());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> subscription.poll(Duration.ZERO));

        assertTrue(e.getMessage().contains("token t/orders/2:2000 is below the since of shard orders, 2000"),
            e.getMessage());
    }

    @Test
    void shouldResumeWithEveryChangeFromTheTokensUpperOn() {
        twoSeals();
        Subscription subscription = open().resume(new ResumeToken("t", "orders", 1, 1000), listener);

        assertEquals(List.of(json(GAME) + " 1200 1", json(BOOK) + " 1500 -1", "t/orders/2:2000"), out);
        assertEquals(new ResumeToken("t", "orders", 2, 2000), subscription.position());
    }

    @Test
    void shouldRefuseATokenOfAnotherShardOrConsensusTopicEvenWhenItIsBehindTheShard() {
        twoSeals();
        ShardState returns = new ShardState("returns");
        returns.apply(ShardFixture.seal(1, 0, 1000, shard.build(0, 0, 1000, List.of()), shard.build(1, 0, 1000, List.of())));
        ShardState ordersOfAnotherApp = new ShardState("orders");
        ordersOfAnotherApp.apply(ShardFixture.seal(1, 0, 1000, shard.build(0, 0, 1000, List.of()),
            shard.build(1, 0, 1000, List.of())));
        String ofReturns = printedToken("t", returns);
        String ofAnotherApp = printedToken("other-consensus", ordersOfAnotherApp);
        ShardReader orders = open();

        IllegalArgumentException shardRefused = assertThrows(IllegalArgumentException.class,
            () -> orders.resume(ResumeToken.parse(ofReturns), listener), "shard returns' token on shard orders");
        assertTrue(shardRefused.getMessage().contains("of shard returns on consensus topic t, not of shard orders"),
            shardRefused.getMessage());
        IllegalArgumentException topicRefused = assertThrows(IllegalArgumentException.class,
            () -> reopen().resume(ResumeToken.parse(ofAnotherApp), listener), "another app's token of shard orders");
        assertTrue(topicRefused.getMessage().contains("of shard orders on consensus topic other-consensus, not of "
            + "shard orders on consensus topic t"), topicRefused.getMessage());
        assertEquals(List.of(), out, "nothing delivered");
    }

    /** The token a subscription to {@code state} on {@code topic} prints after its snapshot of everything sealed. */
    private String printedToken(String topic, ShardState state) {
        try (ShardReader other = ShardReader.of(new ShardFollower(new MockConsumer<>("earliest"), topic, state.shard(),
                state), shard.blobs, shard.registry, "orders-value", Duration.ofSeconds(5))) {
            String token = other.subscribe(state.upper() - 1, listener).position().toString();
            out.clear();
            return token;
        }
    }

    /** A second reader of shard orders (a reader has one subscription). */
    private ShardReader reopen() {
        reader.close();
        reader = ShardReader.of(new ShardFollower(new MockConsumer<>("earliest"), "t", "orders", shard.state),
            shard.blobs, shard.registry, "orders-value", Duration.ofSeconds(5));
        return reader;
    }

    /**
     * A subscription after the two seals, with seal 3 (TOY retracted at 2500) committed for its next poll to read, and
     * {@code commit} run on the consumer's poll after that one: while that poll reads and delivers seal 3.
     */
    private Subscription sealThreeThenWhileAPollReadsIt(Runnable commit) {
        twoSeals();
        Subscription subscription = open().subscribe(1999, listener);
        send(ShardFixture.seal(3, 2000, 3000, shard.build(0, 2000, 3000, List.of(update(id, TOY, 2500, -1))),
            shard.build(1, 2000, 3000, List.of())));
        consumer.schedulePollTask(() -> { });
        consumer.schedulePollTask(commit);
        out.clear();
        return subscription;
    }

    private void twoSeals() {
        shard.append(1, 0, 1000, shard.build(0, 0, 1000, List.of(update(id, BOOK, 100, 1), update(id, TOY, 600, 1))),
            shard.build(1, 0, 1000, List.of()));
        shard.append(2, 1000, 2000, shard.build(0, 1000, 2000, List.of(update(id, BOOK, 1500, -1))),
            shard.build(1, 1000, 2000, List.of(update(id, GAME, 1200, 1))));
    }

    private ShardReader open() {
        return open(shard.blobs);
    }

    private ShardReader open(BlobStore blobs) {
        consumer.assign(List.of(TP));
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        reader = ShardReader.of(new ShardFollower(consumer, "t", "orders", shard.state), blobs, shard.registry,
            "orders-value", Duration.ofSeconds(5));
        return reader;
    }

    private void send(StateDiff diff) {
        consumer.addRecord(new ConsumerRecord<>("t", 0, offset++, ConsensusKeys.diff("orders", diff.getSeqno()),
            Codecs.STATE_DIFF.encode(diff)));
    }

    private void delete(Batch batch) {
        for (Part part : batch.getParts()) {
            shard.blobs.delete(part.getKey());
        }
    }

    private static GenericRecord inV2(GenericRecord v1, String region) {
        GenericRecord row = new GenericData.Record(TestUpdates.ROW_V2);
        v1.getSchema().getFields().forEach(f -> row.put(f.name(), v1.get(f.name())));
        row.put("region", region);
        return row;
    }

    private static String json(GenericRecord row) {
        return GenericData.get().toString(row);
    }
}
