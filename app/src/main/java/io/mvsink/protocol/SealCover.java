package io.mvsink.protocol;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds an exact cover: a set of pending batches whose contributions tile {@code [upper, X)}
 * for every one of the shard's partitions, each partition's range exactly once, with the
 * largest reachable {@code X}. This is the whole guard of "no empty seal": an append is only
 * ever built from a cover this class returns, and a cover is checked partition by partition.
 *
 * <p>Search: from the chain ends {@code c[p]} (all equal to {@code upper} at the start), extend
 * a partition that is furthest behind with a batch all of whose contributions start exactly
 * at their partition's chain end. (Complete when every batch's contributions share one range,
 * as shared batches do: applying a cover's batches in order of their lower always extends a
 * partition furthest behind.) Every state {@code c} is expanded once (the future of a state
 * depends only on {@code c}, since a used batch can never fit again), and every state in which
 * all partitions stand at the same point above {@code upper} is a candidate seal. Duplicates
 * (a contribution made twice) are alternatives; the search uses one copy, never both.
 */
public final class SealCover {
    private final int partitions;
    private final Map<Start, List<Batch>> byStart = new HashMap<>();
    private final Set<List<Long>> seen = new HashSet<>();
    private long bestUpper;
    private Frame best;

    private SealCover(int partitions, Collection<Batch> pending) {
        this.partitions = partitions;
        for (Batch batch : pending) {
            for (Contribution c : batch.getContributions()) {
                byStart.computeIfAbsent(new Start(c.getPartition(), c.getLower()), k -> new ArrayList<>()).add(batch);
            }
        }
    }

    /** Where a contribution starts: its partition and lower. */
    private record Start(int partition, long lower) {
    }

    /** A seal: the new upper and the batches that exactly cover {@code [oldUpper, upper)}. */
    public record Cover(long upper, List<Batch> batches) {
    }

    /**
     * The first step of {@code cover} from {@code upper}: its shortest prefix after which every
     * partition stands at one upper above {@code upper} (itself a cover), or the whole cover if no
     * shorter prefix is one.
     */
    public static Cover firstStep(Cover cover, long upper, int partitions) {
        long[] ends = new long[partitions];
        Arrays.fill(ends, upper);
        List<Batch> prefix = new ArrayList<>();
        for (Batch batch : cover.batches()) {
            prefix.add(batch);
            for (Contribution c : batch.getContributions()) {
                ends[c.getPartition()] = c.getUpper();
            }
            boolean aligned = ends[0] > upper;
            for (long end : ends) {
                aligned &= end == ends[0];
            }
            if (aligned) {
                return new Cover(ends[0], List.copyOf(prefix));
            }
        }
        return cover;
    }

    public static Optional<Cover> find(long upper, int partitions, Collection<Batch> pending) {
        SealCover search = new SealCover(partitions, pending);
        search.bestUpper = upper;
        long[] ends = new long[partitions];
        Arrays.fill(ends, upper);
        search.explore(ends);
        return search.best == null ? Optional.empty() : Optional.of(new Cover(search.bestUpper, search.best.path()));
    }

    /** True if every contribution of {@code batch} starts at its partition's chain end. */
    static boolean fits(Batch batch, long[] ends) {
        for (Contribution c : batch.getContributions()) {
            if (c.getPartition() < 0 || c.getPartition() >= ends.length || c.getLower() != ends[c.getPartition()]) {
                return false;
            }
        }
        return !batch.getContributions().isEmpty();
    }

    /**
     * One state of the search: chain ends, the batches that may extend them, the next to try,
     * and the path that reached it (parent and applied batch), so recording a seal costs O(1).
     */
    private static final class Frame {
        final long[] ends;
        final List<Batch> candidates;
        final Frame parent;
        final Batch applied;
        int next;

        Frame(long[] ends, List<Batch> candidates, Frame parent, Batch applied) {
            this.ends = ends;
            this.candidates = candidates;
            this.parent = parent;
            this.applied = applied;
        }

        List<Batch> path() {
            ArrayDeque<Batch> path = new ArrayDeque<>();
            for (Frame f = this; f.applied != null; f = f.parent) {
                path.addFirst(f.applied);
            }
            return List.copyOf(path);
        }
    }

    /** Depth-first over states, with an explicit stack: a long backlog must not overflow the thread's. */
    private void explore(long[] start) {
        seen.add(boxed(start));
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(start, candidates(start), null, null));
        while (!stack.isEmpty()) {
            Frame frame = stack.peek();
            if (frame.next >= frame.candidates.size()) {
                stack.pop();
                continue;
            }
            Batch batch = frame.candidates.get(frame.next++);
            long[] next = frame.ends.clone();
            for (Contribution c : batch.getContributions()) {
                next[c.getPartition()] = c.getUpper();
            }
            if (!seen.add(boxed(next))) {
                continue;
            }
            Frame child = new Frame(next, candidates(next), frame, batch);
            if (aligned(next) && next[0] > bestUpper) {
                bestUpper = next[0];
                best = child;
            }
            stack.push(child);
        }
    }

    /**
     * Batches that start at the chain end of a partition furthest behind and fit every chain
     * end: those of the first such partition, or, if none of its batches fits, of the next.
     * (Trying every tied partition would explore the same states in every order.)
     */
    private List<Batch> candidates(long[] ends) {
        long behind = Long.MAX_VALUE;
        for (long end : ends) {
            behind = Math.min(behind, end);
        }
        for (int p = 0; p < partitions; p++) {
            if (ends[p] == behind && !byStart.containsKey(new Start(p, behind))) {
                return List.of(); // that partition can never move: no seal lies beyond this state
            }
        }
        Set<Batch> found = new LinkedHashSet<>();
        for (int p = 0; p < partitions; p++) {
            if (ends[p] == behind) {
                for (Batch batch : byStart.getOrDefault(new Start(p, behind), List.of())) {
                    if (fits(batch, ends)) {
                        found.add(batch);
                    }
                }
                if (!found.isEmpty()) {
                    break;
                }
            }
        }
        return new ArrayList<>(found);
    }

    private static boolean aligned(long[] ends) {
        for (long end : ends) {
            if (end != ends[0]) {
                return false;
            }
        }
        return true;
    }

    private static List<Long> boxed(long[] ends) {
        List<Long> list = new ArrayList<>(ends.length);
        for (long e : ends) {
            list.add(e);
        }
        return list;
    }
}
