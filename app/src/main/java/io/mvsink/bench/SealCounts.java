package io.mvsink.bench;

/**
 * What an mvsink run sealed: from its consensus topic (seals are appends that advanced the
 * upper, with the batches and parts they added), the blobs found under its prefix afterwards
 * (storage side: one per successful PUT, since compaction and the GC are off) and its own
 * {@code blob-puts-total} counter read over JMX (-1 if unread).
 */
record SealCounts(long seals, long batches, long parts, long blobsStored, long blobPutsJmx) {

    double putsPerSeal() {
        return seals == 0 ? 0 : (double) blobsStored / seals;
    }

    double batchesPerSeal() {
        return seals == 0 ? 0 : (double) batches / seals;
    }
}
