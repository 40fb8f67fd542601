package io.mvsink.batch;

import java.util.Locale;

/**
 * Blob keys of parts: unique per build attempt (the batch id is a fresh UUID), so a key is
 * never written twice and {@code If-None-Match: *} can make every write write-once.
 */
public final class BlobKeys {
    private BlobKeys() {
    }

    public static String part(String prefix, long lower, long upper, String batchId, int index) {
        return String.format(Locale.ROOT, "%s%019d-%019d/%s-%04d.avro", prefix, lower, upper, batchId, index);
    }
}
