package io.mvsink.blob;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded retries with backoff. For the write-once put, it also keeps track of whether any
 * attempt may have written the blob, so that a failure is reported as certain only when it is:
 * once one attempt was ambiguous, every later failure is "maybe written". Every retried attempt is
 * logged at DEBUG with what it failed with; the failure it ends in names the container's location
 * and what the last attempt failed with, in a few words ({@link #describe}).
 */
final class RetryLoop {
    private static final Logger LOG = LoggerFactory.getLogger(RetryLoop.class);

    private final String location;
    private final int maxAttempts;
    private final Backoff backoff;
    private final Sleeper sleeper;

    /** {@code location} names the container in messages: its URL (without a query), or its name in tests. */
    RetryLoop(String location, int maxAttempts, Backoff backoff, Sleeper sleeper) {
        this.location = location;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.sleeper = sleeper;
    }

    /** Writes {@code data} at {@code key} unless a blob is there; see {@link BlobStore#putIfAbsent}. */
    void putIfAbsent(BlobRequests requests, String key, byte[] data, String owner) {
        String what = "put of " + data.length + " bytes at " + location + "/" + key;
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
    <T> T idempotent(String request, Supplier<T> call) {
        String what = request + " at " + location;
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            pause(attempt, what, false, last);
            try {
                return call.get();
            } catch (RuntimeException e) {
                last = e;
                if (!WriteFailure.classify(e).retriable()) {
                    throw new BlobException(what + " refused: " + describe(e), e);
                }
            }
        }
        throw new BlobUnavailableException(what + " failed after " + maxAttempts + " attempts: " + describe(last), last);
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
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: attempt {} of {} failed, retrying in {} ms: {}", what, attempt - 1, maxAttempts,
                delay.toMillis(), describe(last));
        }
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(what + " interrupted before attempt " + attempt + " (last failure: " + last + ")", maybeWritten, e);
        }
    }

    private static BlobException failure(String message, boolean maybeWritten, Throwable cause) {
        String text = message + (cause == null ? "" : ": " + describe(cause));
        return maybeWritten ? new BlobMaybeWrittenException(text, cause) : new BlobWriteFailedException(text, cause);
    }

    /**
     * What a request failed with, in a few words: the first message of its cause chain that is not
     * a wrapper's copy of its cause's, with its class, else the class of the first exception that is
     * no such wrapper (the JDK's connect failures have no message at all); "could not connect" when
     * the request never reached storage.
     */
    static String describe(Throwable failure) {
        Throwable silent = null;
        String said = null;
        for (Throwable t = failure; t != null && said == null && t.getCause() != t; t = t.getCause()) {
            String message = t.getMessage();
            if (t.getCause() != null && message != null && message.equals(t.getCause().toString())) {
                continue;
            }
            if (message != null) {
                said = t.getClass().getName() + ": " + message;
            } else if (silent == null) {
                silent = t;
            }
        }
        String text = said != null ? said : (silent != null ? silent : failure).getClass().getName();
        return WriteFailure.classify(failure) == WriteFailure.NOT_SENT ? "could not connect (" + text + ")" : text;
    }
}
