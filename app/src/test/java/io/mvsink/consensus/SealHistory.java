package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.avro.StateDiff;
import io.mvsink.codec.Codecs;
import java.nio.ByteBuffer;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * The consensus records a long-running appender of one shard over one partition writes, in log
 * order, generated lazily: a seal per interval with one inline batch of {@code inlineBytes}
 * distinct bytes, a compaction every {@code mergeEvery} seals that merges every live batch into one
 * blob batch, and every {@code rollupEvery} appends a rollup followed by a tombstone for each diff
 * it covers (as {@code AppenderProcessor} does). Nothing is cleaned: it is the log a reader meets
 * before the log cleaner has run. Deterministic for its arguments.
 */
public final class SealHistory implements Iterable<Map.Entry<String, byte[]>> {
    private static final long INTERVAL = 1000;
    private final String shard;
    private final int seals;
    private final int inlineBytes;
    private final int mergeEvery;
    private final int rollupEvery;

    public SealHistory(String shard, int seals, int inlineBytes, int mergeEvery, int rollupEvery) {
        this.shard = shard;
        this.seals = seals;
        this.inlineBytes = inlineBytes;
        this.mergeEvery = mergeEvery;
        this.rollupEvery = rollupEvery;
    }

    /** The shard's upper once every seal is appended. */
    public long upper() {
        return seals * INTERVAL;
    }

    /** How many records {@link #iterator()} yields. */
    public long records() {
        long count = 0;
        for (Iterator<Map.Entry<String, byte[]>> it = iterator(); it.hasNext(); it.next()) {
            count++;
        }
        return count;
    }

    @Override
    public Iterator<Map.Entry<String, byte[]>> iterator() {
        return new Records();
    }

    private final class Records implements Iterator<Map.Entry<String, byte[]>> {
        private final Random random = new Random(42);
        private final ShardState state = new ShardState(shard);
        private final ArrayDeque<Map.Entry<String, byte[]>> next = new ArrayDeque<>();
        private int sealed;
        private int inlineSinceMerge;
        private long rolledUpAt;

        @Override
        public boolean hasNext() {
            if (next.isEmpty() && sealed < seals) {
                step();
            }
            return !next.isEmpty();
        }

        @Override
        public Map.Entry<String, byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return next.poll();
        }

        private void step() {
            long lower = sealed * INTERVAL;
            byte[] data = new byte[inlineBytes];
            random.nextBytes(data);
            Part part = new Part("", 1, (long) inlineBytes, 1L, ByteBuffer.wrap(data));
            sealed++;
            append(lower, lower + INTERVAL, List.of(batch("seal-" + sealed, lower, lower + INTERVAL, part)), List.of());
            if (++inlineSinceMerge == mergeEvery) {
                inlineSinceMerge = 0;
                List<String> removed = state.batches().stream().map(Batch::getBatchId).toList();
                Part blob = new Part(String.format(Locale.ROOT, "%s/merged-%d.avro", shard, sealed), 1, 1L, 1L, null);
                append(state.upper(), state.upper(), List.of(batch("merged-" + sealed, 0, state.upper(), blob)),
                    removed);
            }
        }

        private void append(long lower, long upper, List<Batch> added, List<String> removed) {
            StateDiff diff = StateDiff.newBuilder().setShard(shard).setSeqno(state.seqno() + 1).setLower(lower)
                .setUpper(upper).setPartitionCount(1).setAdded(new ArrayList<>(added))
                .setRemovedBatchIds(new ArrayList<>(removed)).setAppendedAtMs(upper).build();
            state.apply(diff);
            next.add(new SimpleEntry<>(ConsensusKeys.diff(shard, diff.getSeqno()), Codecs.STATE_DIFF.encode(diff)));
            if (state.seqno() - rolledUpAt == rollupEvery) {
                next.add(new SimpleEntry<>(ConsensusKeys.rollup(shard),
                    Codecs.STATE_ROLLUP.encode(state.rollup(upper, Long.MAX_VALUE))));
                for (long seqno = rolledUpAt + 1; seqno <= state.seqno(); seqno++) {
                    next.add(new SimpleEntry<>(ConsensusKeys.diff(shard, seqno), null));
                }
                rolledUpAt = state.seqno();
                state.forgetRetiredBefore(Long.MAX_VALUE);
            }
        }

        private Batch batch(String id, long lower, long upper, Part part) {
            return Batch.newBuilder().setBatchId(id).setShard(shard).setLower(lower).setUpper(upper)
                .setSchemaIds(List.of(1)).setContributions(List.of(new Contribution(0, lower, upper, 1L)))
                .setParts(List.of(part)).setUpdates(1L).setBytes(part.getBytes()).build();
        }
    }
}
