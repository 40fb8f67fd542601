package io.mvsink.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.mvsink.time.TimeRange;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RangeMinterTest {
    private static final long W = 1000;
    private static final long T0 = 1_700_000_000L * W;

    private final RangeMinter minter = new RangeMinter(W, 1 << 20);
    private final Participants tasks = new Participants();

    @Test
    void shouldMintOneIntervalAtASteadyRateForEveryLocalTask() {
        tasks.join(0, BufferedBytes.NONE, 0);
        tasks.join(1, BufferedBytes.NONE, 0);
        assertEquals(Optional.empty(), ask(0, T0, T0 + W), "partition 1 has not asked yet");
        assertEquals(Optional.of(TimeRange.of(T0, T0 + W)), ask(1, T0, T0 + W));
        assertEquals(Optional.of(TimeRange.of(T0, T0 + W)), ask(0, T0, T0 + W), "the same range for both");
    }

    @Test
    void shouldFoldEverythingClosedMeanwhileIntoTheNextRange() {
        tasks.join(0, BufferedBytes.NONE, 0);
        tasks.join(1, BufferedBytes.NONE, 0);
        ask(0, 0, W);
        TimeRange first = ask(1, 0, W).orElseThrow();
        handOff(0, first);
        // while the first range was in flight both frontiers ran 1,500 intervals on
        assertEquals(Optional.empty(), ask(0, W, 1_500 * W), "partition 1 has not handed off the first range");
        handOff(1, first);
        TimeRange next = ask(1, W, 1_600 * W).orElseThrow();
        assertEquals(TimeRange.of(W, 1_024 * W), next, "to the coarsest point below both frontiers");
        assertEquals(1, minter.mints() - 1);
    }

    @Test
    void shouldMintNothingNewWhileHeldButHandOutWhatWasMinted() {
        tasks.join(0, BufferedBytes.NONE, 0);
        TimeRange range = ask(0, T0, T0 + 2 * W).orElseThrow();
        minter.hold(true);
        tasks.join(1, BufferedBytes.NONE, 0);
        assertEquals(Optional.of(range), ask(1, T0, T0 + 4 * W), "a joiner still gets the minted range");
        handOff(0, range);
        handOff(1, range);
        assertEquals(Optional.empty(), ask(0, range.upper(), T0 + 4 * W), "held: the task set is changing");
        minter.hold(false);
        assertEquals(Optional.of(TimeRange.of(range.upper(), T0 + 4 * W)), ask(0, range.upper(), T0 + 4 * W));
    }

    @Test
    void shouldSealTheEmptyPrefixOfANewShardInOneRange() {
        tasks.join(0, BufferedBytes.NONE, 0);
        assertEquals(Optional.of(TimeRange.of(0, T0 + 5 * W)), ask(0, 0, T0 + 5 * W + 300));
    }

    @Test
    void shouldNotMintWhileABuilderOfTheShardIsWriting() {
        tasks.join(0, BufferedBytes.NONE, 0);
        assertEquals(Optional.empty(), minter.next(tasks, new RangeMinter.Ask(0, 0, T0, T0 + 8 * W), false));
        assertEquals(Optional.of(TimeRange.of(T0, T0 + 8 * W)), minter.next(tasks, new RangeMinter.Ask(0, 0, T0, T0 + 8 * W), true));
    }

    @Test
    void shouldNarrowARangeUntilItsBufferedBytesFitTheTarget() {
        RangeMinter small = new RangeMinter(W, 1_000);
        tasks.join(0, (lower, upper) -> (upper - lower) / W * 100, 0); // 100 bytes per interval
        tasks.join(1, (lower, upper) -> (upper - lower) / W * 100, 0);
        small.next(tasks, new RangeMinter.Ask(0, 0, 0, 64 * W), true);
        TimeRange range = small.next(tasks, new RangeMinter.Ask(1, 0, 0, 64 * W), true).orElseThrow();
        assertEquals(TimeRange.of(0, 4 * W), range, "200 bytes per interval: 4 intervals, the coarsest point within 5");
    }

    @Test
    void shouldHandATaskBelowTheSequenceTheRestOfTheRangeItStandsIn() {
        tasks.join(0, BufferedBytes.NONE, 0);
        TimeRange range = ask(0, 0, 1_024 * W).orElseThrow();
        tasks.join(1, BufferedBytes.NONE, 0);
        assertEquals(Optional.of(TimeRange.of(512 * W, 1_024 * W)), ask(1, 512 * W, 2_000 * W), "a late joiner");
        handOff(0, range);
        handOff(1, range);
        assertEquals(Optional.of(TimeRange.of(1_024 * W, 1_536 * W)), ask(0, 1_024 * W, 2_048 * W),
            "partition 1 closed only up to 2,000: the coarsest point below");
    }

    @Test
    void shouldForgetSealedRangesAndMintFromTheSealedUpper() {
        tasks.join(0, BufferedBytes.NONE, 0);
        TimeRange range = ask(0, 0, 4 * W).orElseThrow();
        handOff(0, range);
        Optional<TimeRange> next = minter.next(tasks, new RangeMinter.Ask(0, 16 * W, 16 * W, 18 * W), true);
        assertEquals(Optional.of(TimeRange.of(16 * W, 18 * W)), next, "another JVM's batches sealed up to 16");
        assertTrue(minter.mints() == 2);
    }

    private Optional<TimeRange> ask(int partition, long lower, long closedUpTo) {
        return minter.next(tasks, new RangeMinter.Ask(partition, 0, lower, closedUpTo), true);
    }

    private void handOff(int partition, TimeRange range) {
        tasks.handedOff(partition, range.upper());
    }
}
