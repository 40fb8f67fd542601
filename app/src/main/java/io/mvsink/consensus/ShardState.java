package io.mvsink.consensus;

import io.mvsink.avro.Batch;
import io.mvsink.avro.StateDiff;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A shard's state as the consensus topic describes it: its upper, the last seqno, and the
 * live batches. Built by applying diffs in seqno order; a gap or a diff that does not continue
 * at the current upper is a corrupted topic and fails loudly.
 */
public final class ShardState {
    private final String shard;
    private long upper;
    private long seqno;
    private int partitionCount;
    private final Map<String, Batch> batches = new LinkedHashMap<>();

    public ShardState(String shard) {
        this.shard = shard;
    }

    public void apply(StateDiff diff) {
        if (diff.getSeqno() != seqno + 1 || diff.getLower() != upper || diff.getUpper() <= diff.getLower()) {
            throw new ConsensusCorruptException("shard " + shard + ": diff seqno " + diff.getSeqno() + " ["
                + diff.getLower() + ", " + diff.getUpper() + ") does not follow seqno " + seqno + " at upper " + upper);
        }
        if (diff.getPartitionCount() < 1 || (seqno > 0 && diff.getPartitionCount() != partitionCount)) {
            throw new ConsensusCorruptException("shard " + shard + ": diff seqno " + diff.getSeqno() + " claims "
                + diff.getPartitionCount() + " partitions; the shard has " + (seqno > 0 ? partitionCount : "none yet")
                + " and a shard's partition count never changes");
        }
        List<String> problems = CoverCheck.problems(diff);
        if (!problems.isEmpty()) {
            throw new ConsensusCorruptException("shard " + shard + ": append " + diff.getSeqno()
                + " is not an exact cover: " + problems);
        }
        diff.getRemovedBatchIds().forEach(batches::remove);
        for (Batch batch : diff.getAdded()) {
            batches.put(batch.getBatchId(), batch);
        }
        seqno = diff.getSeqno();
        upper = diff.getUpper();
        partitionCount = diff.getPartitionCount();
    }

    public String shard() {
        return shard;
    }

    public long upper() {
        return upper;
    }

    public long seqno() {
        return seqno;
    }

    public int partitionCount() {
        return partitionCount;
    }

    public Collection<Batch> batches() {
        return Collections.unmodifiableCollection(batches.values());
    }
}
