package io.mvsink.protocol;

import io.mvsink.batch.PartEncoder;
import io.mvsink.blob.BlobStore;
import io.mvsink.metrics.LaunchLog;
import io.mvsink.registry.SchemaRegistry;
import java.util.concurrent.Executor;
import org.apache.kafka.common.utils.Time;

/**
 * What every shard and builder of the coalescer shares, built once per JVM: the one lock, the
 * builder pool, the rules and the tools to write parts with.
 *
 * @param lock guards every shard's state, every builder's and {@code totals}
 */
record Workshop(Object lock, Executor pool, CoalescerSettings settings, Time time, Ownership ownership, Totals totals,
                BlobStore blobs, SchemaRegistry schemas, PartEncoder encoder, LaunchLog launch) {

    CoalescingMode mode() {
        return settings.mode();
    }

    long barrierTimeoutMs() {
        return settings.barrierTimeout().toMillis();
    }

    /** In best-effort mode, how long a builder whose work has drained stays open. */
    long lingerMs() {
        return settings.linger().toMillis();
    }
}
