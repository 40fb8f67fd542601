package io.mvsink.blob;

import java.util.Optional;

/**
 * Single requests to storage, without retries: what the retry loop drives. Failures are thrown
 * as they come (SDK exceptions) for {@link WriteFailure#classify} to judge.
 */
interface BlobRequests {

    /** One PUT of {@code data} at {@code key} with {@code If-None-Match: *}, owned by {@code owner} (null: none). */
    void uploadIfNoneMatch(String key, byte[] data, String owner);

    /** One GET of the blob at {@code key}; empty if there is none. */
    Optional<byte[]> download(String key);
}
