package io.mvsink.blob;

import java.time.Instant;

/**
 * One listed blob.
 *
 * @param owner the owner it was written with ({@link BlobStore#OWNER_METADATA}); null if it has
 *     none (written by a version before owners, or by a test on purpose)
 */
public record BlobInfo(String key, long size, Instant lastModified, String owner) {
}
