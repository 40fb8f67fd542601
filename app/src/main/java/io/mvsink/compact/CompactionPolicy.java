package io.mvsink.compact;

import io.mvsink.avro.Batch;
import io.mvsink.consensus.CoverCheck;
import io.mvsink.consensus.ShardState;
import io.mvsink.time.TimeRange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which live batches to merge next. The live batches of a shard tile {@code [0, upper)} for every
 * partition; they fall into <em>runs</em>: maximal groups whose ranges overlap, each an exact
 * cover of its own range (a seal's batches form one run; a merged batch is a run of its own).
 *
 * <p>The rule keeps the runs geometric: it merges the runs from the oldest run {@code j} whose weight
 * (consolidated updates, at least 1) is at most twice the weight of all newer runs together, down to
 * the newest, into one batch. Afterwards every run weighs more than twice all newer runs together,
 * so there are at most {@code 1 + log2(total weight)} runs; merging a whole suffix also catches up
 * in one merge when seals arrived faster than merges. Failing that rule, a run of several batches
 * (a seal's) is merged on its own. Between merges the live batches are those runs plus the seals
 * appended since the last merge started: logarithmic in the shard's updates, hence in its appends.
 * Runs whose parts hold more than {@code maxBatchBytes} together are never merged (a merge holds its
 * input in memory): past that size the count grows with the shard's bytes divided by the cap.
 *
 * <p><b>Inline batches</b> (every part inline in consensus, or none) are what a quiet shard seals; a
 * merge writes its result as blobs, so merging them at once would cost the blob write inlining
 * saved. The newest runs made only of such batches are therefore held back while their inline
 * bytes total less than {@code inlineMergeBytes} and they are fewer than {@link #MAX_HELD_RUNS};
 * the rule then applies to the older runs alone. Once either bound is reached they take part
 * again, and the rule (which merges a suffix of runs) merges them together with whatever older run
 * it picks: one blob write per {@code inlineMergeBytes} of inline data, and inline data in the
 * state stays below that bound plus what is sealed while that merge runs.
 */
public final class CompactionPolicy {
    private CompactionPolicy() {
    }

    /** One run: its batches, its range and its weight. */
    public record Run(List<Batch> batches, long lower, long upper, long weight, long bytes) {
    }

    /** The live batches in runs, oldest first. */
    public static List<Run> runs(Collection<Batch> live) {
        List<Batch> sorted = new ArrayList<>(live);
        sorted.sort(Comparator.comparingLong((Batch b) -> CoverCheck.range(List.of(b)).lower())
            .thenComparing(Batch::getBatchId));
        List<Run> runs = new ArrayList<>();
        List<Batch> current = new ArrayList<>();
        long lower = 0;
        long upper = Long.MIN_VALUE;
        for (Batch batch : sorted) {
            TimeRange range = CoverCheck.range(List.of(batch));
            if (!current.isEmpty() && range.lower() >= upper) {
                runs.add(run(current, lower, upper));
                current = new ArrayList<>();
            }
            if (current.isEmpty()) {
                lower = range.lower();
            }
            current.add(batch);
            upper = Math.max(upper, range.upper());
        }
        if (!current.isEmpty()) {
            runs.add(run(current, lower, upper));
        }
        return runs;
    }

    private static Run run(List<Batch> batches, long lower, long upper) {
        long updates = batches.stream().mapToLong(Batch::getUpdates).sum();
        long bytes = batches.stream().mapToLong(Batch::getBytes).sum();
        return new Run(List.copyOf(batches), lower, upper, Math.max(1, updates), bytes);
    }

    /** At most this many newest runs of inline batches are held back from merging. */
    public static final int MAX_HELD_RUNS = 128;

    /** The batches to merge next (an exact cover of their range), if any rule applies; no inline hold. */
    public static Optional<List<Batch>> pick(Collection<Batch> live, long maxBatchBytes) {
        return pick(live, maxBatchBytes, 0);
    }

    /**
     * The batches to merge next (an exact cover of their range), if any rule applies, holding the
     * newest inline runs back while they hold less than {@code inlineMergeBytes} (0: never hold).
     */
    public static Optional<List<Batch>> pick(Collection<Batch> live, long maxBatchBytes, long inlineMergeBytes) {
        List<Run> runs = runs(live);
        return pickAmong(runs.subList(0, runs.size() - held(runs, inlineMergeBytes)), maxBatchBytes);
    }

    /** How many of the newest runs are held back: inline-only runs, while below both bounds. */
    private static int held(List<Run> runs, long inlineMergeBytes) {
        if (inlineMergeBytes <= 0) {
            return 0;
        }
        int held = 0;
        long inline = 0;
        for (int j = runs.size() - 1; j >= 0 && inlineOnly(runs.get(j)); j--) {
            held++;
            inline += runs.get(j).batches().stream().mapToLong(ShardState::inlineBytes).sum();
        }
        boolean hold = inline > 0 && inline < inlineMergeBytes && held < MAX_HELD_RUNS;
        return hold ? held : 0;
    }

    private static boolean inlineOnly(Run run) {
        return run.batches().stream().allMatch(b -> b.getParts().stream().allMatch(p -> p.getInline() != null));
    }

    private static Optional<List<Batch>> pickAmong(List<Run> runs, long maxBatchBytes) {
        int oldest = -1;
        long newerWeight = 0;
        long bytes = 0;
        for (int j = runs.size() - 1; j >= 0; j--) {
            Run run = runs.get(j);
            bytes += run.bytes();
            if (bytes > maxBatchBytes) {
                break;
            }
            if (j < runs.size() - 1 && run.weight() <= 2 * newerWeight) {
                oldest = j;
            }
            newerWeight += run.weight();
        }
        if (oldest >= 0) {
            List<Batch> suffix = new ArrayList<>();
            runs.subList(oldest, runs.size()).forEach(run -> suffix.addAll(run.batches()));
            return Optional.of(suffix);
        }
        for (Run run : runs) {
            if (run.batches().size() > 1 && run.bytes() <= maxBatchBytes) {
                return Optional.of(run.batches());
            }
        }
        return Optional.empty();
    }
}
