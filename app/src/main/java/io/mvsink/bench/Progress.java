package io.mvsink.bench;

import io.mvsink.protocol.CoalescingMode;
import io.mvsink.blob.BlobStore;
import io.mvsink.console.ProgressLine;
import io.mvsink.metrics.ShardMetrics;

/** The one live progress line of a bench mode, on stderr. */
final class Progress {
    private final CoalescingMode mode;
    private final long durationSeconds;
    private final ShardMetrics metrics;
    private final BlobStore blobs;
    private final long start = System.nanoTime();
    private final ProgressLine line = ProgressLine.onStderr();

    Progress(CoalescingMode mode, long durationSeconds, ShardMetrics metrics, BlobStore blobs) {
        this.mode = mode;
        this.durationSeconds = durationSeconds;
        this.metrics = metrics;
        this.blobs = blobs;
    }

    void print(long sent, String phase) {
        line.update(String.format("[%-11s %3ds/%ds %-9s] sent %d | processed %d | sealed %d | appends %d | blob writes %d",
            mode.configName(), (System.nanoTime() - start) / 1_000_000_000L, durationSeconds, phase, sent,
            metrics.updates(), metrics.intervalsSealed(), metrics.appends(), blobs.writeRequests()));
    }

    void done() {
        line.end();
    }
}
