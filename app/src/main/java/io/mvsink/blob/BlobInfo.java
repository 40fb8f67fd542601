package io.mvsink.blob;

import java.time.Instant;

/** One listed blob. */
public record BlobInfo(String key, long size, Instant lastModified) {
}
