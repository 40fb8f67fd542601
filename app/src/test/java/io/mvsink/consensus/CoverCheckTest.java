package io.mvsink.consensus;

import static io.mvsink.consensus.Diffs.batch;
import static io.mvsink.consensus.Diffs.c;
import static io.mvsink.consensus.Diffs.diff;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CoverCheckTest {

    @Test
    void shouldAcceptAnExactCoverInSharedAndSoloBatches() {
        assertEquals(List.of(), CoverCheck.problems(diff(1, 0, 2000, 3,
            batch("shared", c(0, 0, 1000), c(1, 0, 2000)), batch("solo-0", c(0, 1000, 2000)),
            batch("solo-2", c(2, 0, 2000)))));
    }

    @Test
    void shouldNotAcceptACoverMissingAPartition() {
        List<String> problems = CoverCheck.problems(diff(1, 0, 1000, 3, batch("b", c(0, 0, 1000), c(2, 0, 1000))));

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("partition 1 "), problems.toString());
    }

    @Test
    void shouldNotAcceptAnEmptyAppendOfAPartitionedShard() {
        assertEquals(2, CoverCheck.problems(diff(1, 0, 1000, 2)).size());
    }

    @Test
    void shouldNotAcceptAPartitionCoveredTwice() {
        assertFalse(CoverCheck.problems(diff(1, 0, 1000, 1, batch("a", c(0, 0, 1000)), batch("b", c(0, 0, 1000))))
            .isEmpty());
    }

    @Test
    void shouldNotAcceptOverlappingContributions() {
        assertFalse(CoverCheck.problems(diff(1, 0, 2000, 1, batch("a", c(0, 0, 1500)), batch("b", c(0, 1000, 2000))))
            .isEmpty());
    }

    @Test
    void shouldNotAcceptAHoleInAPartition() {
        assertFalse(CoverCheck.problems(diff(1, 0, 3000, 1, batch("a", c(0, 0, 1000)), batch("b", c(0, 2000, 3000))))
            .isEmpty());
    }

    @Test
    void shouldNotAcceptAContributionBeyondTheUpper() {
        assertFalse(CoverCheck.problems(diff(1, 0, 1000, 1, batch("a", c(0, 0, 2000)))).isEmpty());
    }

    @Test
    void shouldNotAcceptAContributionStartingBeforeTheLower() {
        assertFalse(CoverCheck.problems(diff(2, 1000, 2000, 1, batch("a", c(0, 0, 2000)))).isEmpty());
    }

    @Test
    void shouldNotAcceptAnEmptyContributionRange() {
        assertFalse(CoverCheck.problems(diff(1, 0, 1000, 1, batch("a", c(0, 0, 0), c(0, 0, 1000)))).isEmpty());
    }

    @Test
    void shouldNotAcceptAPartitionOutOfRange() {
        List<String> problems = CoverCheck.problems(diff(1, 0, 1000, 1,
            batch("a", c(0, 0, 1000)), batch("b", c(1, 0, 1000)), batch("c", c(-1, 0, 1000))));

        assertEquals(List.of("batch b holds unknown partition 1", "batch c holds unknown partition -1"), problems);
    }
}
