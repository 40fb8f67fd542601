package io.mvsink.topology;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
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
 * the partition that is furthest behind with a batch all of whose contributions start exactly
 * at their partition's chain end. Every state {@code c} is expanded once (the future of a state
 * depends only on {@code c}, since a used batch can never fit again), and every state in which
 * all partitions stand at the same point above {@code upper} is a candidate seal. Duplicates
 * (a contribution made twice) are alternatives; the search uses one copy, never both.
 */
final class SealCover {
    private final int partitions;
    private final Map<Start, List<Batch>> byStart = new HashMap<>();
    private final Set<List<Long>> seen = new HashSet<>();
    private long bestUpper;
    private List<Batch> bestBatches = List.of();

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
    record Cover(long upper, List<Batch> batches) {
    }

    static Optional<Cover> find(long upper, int partitions, Collection<Batch> pending) {
        SealCover search = new SealCover(partitions, pending);
        search.bestUpper = upper;
        long[] ends = new long[partitions];
        Arrays.fill(ends, upper);
        search.explore(ends, new ArrayDeque<>());
        return search.bestUpper > upper
            ? Optional.of(new Cover(search.bestUpper, List.copyOf(search.bestBatches)))
            : Optional.empty();
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

    private void explore(long[] ends, Deque<Batch> chosen) {
        if (!seen.add(boxed(ends))) {
            return;
        }
        int behind = 0;
        boolean aligned = true;
        for (int p = 1; p < partitions; p++) {
            aligned &= ends[p] == ends[0];
            if (ends[p] < ends[behind]) {
                behind = p;
            }
        }
        if (aligned && ends[0] > bestUpper) {
            bestUpper = ends[0];
            bestBatches = new ArrayList<>(chosen);
        }
        for (Batch batch : byStart.getOrDefault(new Start(behind, ends[behind]), List.of())) {
            if (fits(batch, ends)) {
                long[] next = ends.clone();
                for (Contribution c : batch.getContributions()) {
                    next[c.getPartition()] = c.getUpper();
                }
                chosen.addLast(batch);
                explore(next, chosen);
                chosen.removeLast();
            }
        }
    }

    private static List<Long> boxed(long[] ends) {
        List<Long> list = new ArrayList<>(ends.length);
        for (long e : ends) {
            list.add(e);
        }
        return list;
    }
}
