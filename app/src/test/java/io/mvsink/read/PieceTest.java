package io.mvsink.read;

import static io.mvsink.batch.TestUpdates.row;
import static io.mvsink.batch.TestUpdates.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.avro.Batch;
import io.mvsink.consensus.ShardFollower.Advance;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PieceTest {
    private final ShardFixture shard = new ShardFixture();
    private final int id = shard.schemaId;

    @AfterEach
    void close() {
        shard.close();
    }

    @Test
    void shouldCutAPollIntoOnePiecePerSealWhenEachSealHasItsOwnBatches() {
        List<Batch> first = seal(1, 0, 1000);
        List<Batch> second = seal(2, 1000, 2000);

        List<Piece> pieces = Piece.plan(shard.state, 0, List.of(new Advance(1, 0, 1000), new Advance(2, 1000, 2000)));

        assertEquals(List.of(new Piece(0, 1000, first, List.of(new Advance(1, 0, 1000))),
            new Piece(1000, 2000, second, List.of(new Advance(2, 1000, 2000)))), pieces);
    }

    @Test
    void shouldKeepTheSealsOfAMergedBatchInOnePieceSoThatItIsReadOnce() {
        List<Batch> first = seal(1, 0, 1000);
        List<Batch> second = seal(2, 1000, 2000);
        List<Batch> third = seal(3, 2000, 3000);
        Batch[] merging = {first.get(0), first.get(1), second.get(0), second.get(1)};
        shard.state.apply(shard.compaction(4, merging));
        Batch merged = shard.state.batch("merged-" + merging[0].getBatchId());
        List<Advance> advances = List.of(new Advance(1, 0, 1000), new Advance(2, 1000, 2000),
            new Advance(3, 2000, 3000));

        List<Piece> pieces = Piece.plan(shard.state, 0, advances);

        assertEquals(List.of(new Piece(0, 2000, List.of(merged), advances.subList(0, 2)),
            new Piece(2000, 3000, third, advances.subList(2, 3))), pieces);
    }

    @Test
    void shouldLeaveOutTheAdvancesAlreadyDelivered() {
        List<Batch> first = seal(1, 0, 1000);
        List<Batch> second = seal(2, 1000, 2000);

        List<Piece> pieces = Piece.plan(shard.state, 1000, List.of(new Advance(1, 0, 1000), new Advance(2, 1000, 2000)));

        assertEquals(List.of(new Piece(1000, 2000, second, List.of(new Advance(2, 1000, 2000)))), pieces);
    }

    /** The seal at {@code seqno} over {@code [lower, upper)} appended: its batches, one per partition. */
    private List<Batch> seal(long seqno, long lower, long upper) {
        Batch[] batches = {shard.build(0, lower, upper, List.of(update(id, row(1, "books", 5), lower, 1))),
            shard.build(1, lower, upper, List.of())};
        shard.append(seqno, lower, upper, batches);
        return List.of(batches);
    }
}
