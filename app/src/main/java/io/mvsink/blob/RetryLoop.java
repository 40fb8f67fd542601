package io.mvsink.blob;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bounded retries with backoff. For the write-once put, it also keeps track of whether any
 * attempt may have written the blob, so that a failure is reported as certain only when it is:
 * once one attempt was ambiguous, every later failure is "maybe written".
 */
final class RetryLoop {
    private final String container;
    private final int maxAttempts;
    private final Backoff backoff;
    private final Sleeper sleeper;

    RetryLoop(String container, int maxAttempts, Backoff backoff, Sleeper sleeper) {
        this.container = container;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.sleeper = sleeper;
    }

    /** Writes {@code data} at {@code key} unless a blob is there; see {@link BlobStore#putIfAbsent}. */
    void putIfAbsent(BlobRequests requests, String key, byte[] data, String owner) {
        String what = "put of " + data.length + " bytes at " + container + "/" + key;
        boolean maybeWritten = false;
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            pause(attempt, what, maybeWritten, last);
            try {
                requests.uploadIfNoneMatch(key, data, owner);
                return;
            } catch (RuntimeException e) {
                last = e;
                switch (WriteFailure.classify(e)) {
                    case KEY_TAKEN -> {
                        if (holdsSameBytes(requests, key, data, what, attempt, maybeWritten)) {
                            return;
                        }
                    }
                    case REFUSED -> throw failure(what + " refused on attempt " + attempt, maybeWritten, e);
                    case NOT_SENT -> { }
                    case AMBIGUOUS -> maybeWritten = true;
                }
            }
        }
        throw failure(what + " failed after " + maxAttempts + " attempts", maybeWritten, last);
    }

    /** Runs an idempotent request (read, list, delete), retrying what {@link WriteFailure#retriable()} allows. */
    <T> T idempotent(String what, Supplier<T> request) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            pause(attempt, what, false, last);
            try {
                return request.get();
            } catch (RuntimeException e) {
                last = e;
                if (!WriteFailure.classify(e).retriable()) {
                    throw new BlobException(what + " at container " + container + " refused: " + e.getMessage(), e);
                }
            }
        }
        throw new BlobUnavailableException(what + " at container " + container + " failed after " + maxAttempts
                + " attempts: " + last, last);
    }

    /**
     * After a 409/412: true if the blob at the key has our bytes (an earlier attempt landed),
     * {@link BlobExistsException} if it has others; false (retry) if it is gone or unreadable.
     */
    private boolean holdsSameBytes(BlobRequests requests, String key, byte[] data, String what, int attempt,
                                   boolean maybeWritten) {
        Optional<byte[]> existing;
        try {
            existing = requests.download(key);
        } catch (RuntimeException e) {
            return false;
        }
        if (existing.isEmpty()) {
            return false;
        }
        if (Arrays.equals(existing.get(), data)) {
            return true;
        }
        throw new BlobExistsException(what + ": key already holds " + existing.get().length
                + " other bytes (attempt " + attempt + (maybeWritten ? ", after an ambiguous attempt" : "") + ")");
    }

    private void pause(int attempt, String what, boolean maybeWritten, RuntimeException last) {
        if (attempt == 1) {
            return;
        }
        Duration delay = backoff.beforeRetry(attempt - 1);
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(what + " interrupted before attempt " + attempt + " (last failure: " + last + ")", maybeWritten, e);
        }
    }

    private static BlobException failure(String message, boolean maybeWritten, Throwable cause) {
        String text = message + (cause == null ? "" : ": " + cause.getMessage());
        return maybeWritten ? new BlobMaybeWrittenException(text, cause) : new BlobWriteFailedException(text, cause);
    }
}
