package io.mvsink.protocol;

import static io.mvsink.topology.Batches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import io.mvsink.consensus.CoverCheck;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SealCoverTest {

    @Test
    void shouldNotSealWithoutEveryPartition() {
        List<Batch> pending = List.of(batch(0, 1000, 0), batch(0, 1000, 1), batch(1000, 2000, 0), batch(1000, 2000, 1));
        assertTrue(SealCover.find(0, 3, pending).isEmpty(), "partition 2 contributed nothing");
    }

    @Test
    void shouldSealTheLargestAlignedUpper() {
        List<Batch> pending = List.of(batch(0, 1000, 0), batch(1000, 3000, 0), batch(0, 3000, 1), batch(3000, 4000, 1));
        SealCover.Cover cover = SealCover.find(0, 2, pending).orElseThrow();
        assertEquals(3000, cover.upper());
        assertEquals(3, cover.batches().size());
    }

    @Test
    void shouldUseOneCopyOfADuplicatedContribution() {
        Batch first = batch(0, 1000, 0);
        Batch again = batch(0, 1000, 0);
        SealCover.Cover cover = SealCover.find(0, 2, List.of(first, again, batch(0, 1000, 1))).orElseThrow();
        assertEquals(1000, cover.upper());
        assertEquals(2, cover.batches().size());
        assertTrue(cover.batches().contains(first) ^ cover.batches().contains(again));
    }

    @Test
    void shouldNotUseABatchThatOverlapsAnotherChosenOne() {
        // shared batch {0,1} for [0,1000) and solo batches; partition 1's [0,1000) is also alone.
        List<Batch> pending = List.of(batch(0, 1000, 0, 1), batch(0, 1000, 1), batch(0, 1000, 2));
        SealCover.Cover cover = SealCover.find(0, 3, pending).orElseThrow();
        assertEquals(1000, cover.upper());
        assertExact(0, 3, cover);
    }

    /**
     * Why a task contributes copies in grid-interval pieces (CorrectionProcessor): partition 1's
     * batch for [0,1000) was lost, and its next contribution went into a batch shared with
     * partition 0. A copy of partition 1 that spans [0,2000) can never be combined with that shared
     * batch (it would hold [1000,2000) of partition 1 twice), and partition 0 has no other
     * [1000,2000): the shard could never seal again. Pieces fit every boundary.
     */
    @Test
    void shouldFindNoCoverWhileACopySpansABoundaryItsBundleMateNeeds() {
        List<Batch> before = List.of(batch(0, 1000, 0), batch(1000, 2000, 0, 1));
        List<Batch> withJump = new ArrayList<>(before);
        withJump.add(batch(0, 2000, 1));
        assertTrue(SealCover.find(0, 2, withJump).isEmpty(), "the copy and the shared batch exclude each other");

        List<Batch> withPieces = new ArrayList<>(before);
        withPieces.addAll(List.of(batch(0, 1000, 1), batch(1000, 2000, 1)));
        SealCover.Cover cover = SealCover.find(0, 2, withPieces).orElseThrow();
        assertEquals(2000, cover.upper(), "pieces fit every grid boundary of the shared batch");
        assertExact(0, 2, cover);
    }

    @Test
    void shouldIgnoreBatchesBelowTheUpper() {
        assertTrue(SealCover.find(1000, 1, List.of(batch(0, 1000, 0))).isEmpty());
        assertEquals(2000, SealCover.find(1000, 1, List.of(batch(0, 2000, 0), batch(1000, 2000, 0)))
            .orElseThrow().upper());
    }

    @Test
    void shouldExtendAnyPartitionThatIsFurthestBehind() {
        Batch mixed = Batch.newBuilder(batch(0, 2000, 0))
            .setContributions(List.of(new io.mvsink.avro.Contribution(0, 0L, 2000L, 1L),
                new io.mvsink.avro.Contribution(1, 1000L, 2000L, 1L)))
            .build();
        SealCover.Cover cover = SealCover.find(0, 2, List.of(mixed, batch(0, 1000, 1))).orElseThrow();
        assertEquals(2000, cover.upper());
        assertExact(0, 2, cover);
    }

    @Test
    void shouldSealALongBacklogWithoutRunningOutOfStack() {
        List<Batch> pending = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            for (int i = 0; i < 2_000; i++) {
                pending.add(batch(i * 1000L, (i + 1) * 1000L, p));
            }
        }
        SealCover.Cover cover = SealCover.find(0, 8, pending).orElseThrow();
        assertEquals(2_000_000, cover.upper());
        assertEquals(16_000, cover.batches().size());
        assertExact(0, 8, cover);
    }

    @Test
    void shouldGiveUpAtOnceWhileOnePartitionIsMissingFromALongBacklog() {
        List<Batch> pending = new ArrayList<>();
        for (int p = 0; p < 7; p++) {
            for (int i = 0; i < 2_000; i++) {
                pending.add(batch(i * 1000L, (i + 1) * 1000L, p));
            }
        }
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5),
            () -> assertTrue(SealCover.find(0, 8, pending).isEmpty(), "partition 7 has contributed nothing"));
    }

    /** Random pending sets: whatever the search returns is an exact cover; it finds one when one exists. */
    @Test
    void shouldOnlyEverReturnExactCovers() {
        Random random = new Random(42);
        for (int round = 0; round < 2_000; round++) {
            int partitions = 1 + random.nextInt(4);
            List<Batch> pending = new ArrayList<>();
            long[] ends = new long[partitions];
            for (int i = 0; i < 12; i++) {
                int p = random.nextInt(partitions);
                long width = 1000L * (1 + random.nextInt(2));
                if (random.nextInt(4) == 0) {
                    pending.add(batch(ends[p] - (random.nextBoolean() ? 1000 : 0), ends[p] + width, p));
                } else {
                    pending.add(batch(ends[p], ends[p] + width, p));
                }
                ends[p] += width;
                if (random.nextInt(5) == 0) {
                    pending.add(batch(0, 1000, randomSubset(random, partitions)));
                }
            }
            Collections.shuffle(pending, random);
            Optional<SealCover.Cover> cover = SealCover.find(0, partitions, pending);
            cover.ifPresent(c -> assertExact(0, partitions, c));
            boolean everyPartitionStartsAtZero = true;
            for (int p = 0; p < partitions; p++) {
                final int part = p;
                everyPartitionStartsAtZero &= pending.stream().anyMatch(b -> b.getContributions().size() == 1
                    && b.getContributions().get(0).getPartition() == part && b.getContributions().get(0).getLower() == 0
                    && b.getContributions().get(0).getUpper() == 1000);
            }
            if (everyPartitionStartsAtZero) {
                assertTrue(cover.isPresent(), "solo [0,1000) batches of every partition form a cover");
            }
        }
    }

    private static int[] randomSubset(Random random, int partitions) {
        Set<Integer> set = new HashSet<>();
        set.add(random.nextInt(partitions));
        set.add(random.nextInt(partitions));
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void assertExact(long lower, int partitions, SealCover.Cover cover) {
        StateDiff diff = StateDiff.newBuilder().setShard("s").setSeqno(1).setLower(lower).setUpper(cover.upper())
            .setPartitionCount(partitions).setAdded(cover.batches()).setAppendedAtMs(0).build();
        List<String> problems = CoverCheck.problems(diff);
        assertTrue(problems.isEmpty(), problems::toString);
        assertFalse(cover.batches().isEmpty());
    }

    @Test
    void shouldTakeTheFirstStepOfACover() {
        List<Batch> pending = List.of(batch(0, 1000, 0), batch(0, 1000, 1), batch(1000, 3000, 0, 1));
        SealCover.Cover cover = SealCover.find(0, 2, pending).orElseThrow();
        assertEquals(3000, cover.upper());

        SealCover.Cover first = SealCover.firstStep(cover, 0, 2);

        assertEquals(1000, first.upper(), "both partitions stand at 1000 after the first two batches");
        assertEquals(2, first.batches().size());
        assertEquals(cover.batches().subList(0, 2), first.batches());
        SealCover.Cover single = new SealCover.Cover(3000, List.of(pending.get(2)));
        assertEquals(single, SealCover.firstStep(single, 1000, 2), "a one-step cover is its own first step");
    }
}
