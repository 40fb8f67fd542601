package io.mvsink.it;

import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.Map;

/**
 * A full read of one shard on the consensus topic, in a JVM of its own ({@link ConsensusReadBenchIT}
 * starts it with a small heap): what an app's restart, a gc run and {@code snapshot} do first.
 * Prints one line of figures (the heap pools' peak use, garbage included, and the heap in use after
 * a full GC with the state still held); an {@link OutOfMemoryError} ends the JVM with a non-zero status.
 * Arguments: bootstrap servers, consensus topic, shard.
 */
public final class ConsensusReadProbe {
    private ConsensusReadProbe() {
    }

    public static void main(String[] args) {
        long started = System.nanoTime();
        ShardState state = ConsensusReader.read(Map.of("bootstrap.servers", args[0]), args[1], args[2],
            Duration.ofMinutes(10));
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.gc();
        long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("probe: seqno=%d upper=%d batches=%d readSeconds=%.1f peakHeapMiB=%.1f "
                + "heapAfterGcMiB=%.1f maxHeapMiB=%.1f%n", state.seqno(), state.upper(), state.batches().size(), seconds,
            peak / 1048576.0, live / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0);
    }
}
