package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RetryLoopTest {
    private static final byte[] DATA = {1, 2, 3};

    private final List<Duration> sleeps = new ArrayList<>();
    private final RetryLoop loop = new RetryLoop("parts", 5,
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(500)), sleeps::add);
    private final ScriptedRequests storage = new ScriptedRequests();

    @Test
    void shouldWriteOnFirstAttemptWithoutSleeping() {
        loop.putIfAbsent(storage, "k", DATA, null);

        assertArrayEquals(DATA, storage.blobs.get("k"));
        assertEquals(1, storage.uploads);
        assertEquals(List.of(), sleeps);
    }

    @Test
    void shouldRetryServerErrorWithBackoffAndSucceed() {
        storage.thenFail(2, StorageErrors.status(503, "ServerBusy"));

        loop.putIfAbsent(storage, "k", DATA, null);

        assertEquals(3, storage.uploads);
        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), sleeps);
    }

    @Test
    void shouldSucceedWhenRetryFindsItsOwnEarlierWrite() {
        storage.thenFail(timeout(), true);

        loop.putIfAbsent(storage, "k", DATA, null);

        assertEquals(2, storage.uploads);
        assertEquals(1, storage.downloads);
    }

    @Test
    void shouldThrowExistsWhenKeyHoldsOtherBytes() {
        storage.blobs.put("k", new byte[] {9});

        BlobExistsException e = assertThrows(BlobExistsException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
        assertTrue(e.getMessage().contains("parts/k"), e.getMessage());
        assertEquals(1, storage.uploads);
    }

    @Test
    void shouldFailAtOnceWhenRefused() {
        storage.thenFail(1, StorageErrors.status(403, "AuthenticationFailed"));

        assertThrows(BlobWriteFailedException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
        assertEquals(1, storage.uploads);
        assertEquals(List.of(), sleeps);
    }

    @Test
    void shouldReportMaybeWrittenWhenRefusedAfterAnAmbiguousAttempt() {
        storage.thenFail(1, StorageErrors.status(500, "InternalError"))
                .thenFail(1, StorageErrors.status(403, "AuthenticationFailed"));

        assertThrows(BlobMaybeWrittenException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
    }

    @Test
    void shouldReportMaybeWrittenWhenAmbiguousAttemptsRunOut() {
        storage.thenFail(5, timeout());

        BlobMaybeWrittenException e = assertThrows(BlobMaybeWrittenException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
        assertTrue(e.getMessage().contains("after 5 attempts"), e.getMessage());
        assertEquals(5, storage.uploads);
        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofMillis(500)), sleeps);
    }

    @Test
    void shouldReportWriteFailedWhenNoAttemptReachedStorage() {
        storage.thenFail(5, refused());

        assertThrows(BlobWriteFailedException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
        assertEquals(5, storage.uploads);
    }

    @Test
    void shouldReportMaybeWrittenWhenOneOfManyAttemptsWasAmbiguous() {
        storage.thenFail(2, refused()).thenFail(1, StorageErrors.status(500, "InternalError")).thenFail(2, refused());

        assertThrows(BlobMaybeWrittenException.class, () -> loop.putIfAbsent(storage, "k", DATA, null));
    }

    @Test
    void shouldRetryWhenTakenKeyTurnsOutEmpty() {
        storage.thenFail(1, StorageErrors.status(412, "ConditionNotMet"));

        loop.putIfAbsent(storage, "k", DATA, null);

        assertEquals(2, storage.uploads);
        assertArrayEquals(DATA, storage.blobs.get("k"));
    }

    @Test
    void shouldKeepAmbiguityAndInterruptFlagWhenInterrupted() {
        RetryLoop interrupted = new RetryLoop("parts", 5, new Backoff(Duration.ofMillis(1), Duration.ofMillis(1)), d -> {
            throw new InterruptedException();
        });
        storage.thenFail(1, StorageErrors.status(500, "InternalError"));

        try {
            assertThrows(BlobMaybeWrittenException.class, () -> interrupted.putIfAbsent(storage, "k", DATA, null));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void shouldRetryIdempotentRequestUntilItWorks() {
        AtomicInteger calls = new AtomicInteger();

        String result = loop.idempotent("get of k", () -> {
            if (calls.incrementAndGet() < 3) {
                throw timeout();
            }
            return "ok";
        });

        assertEquals("ok", result);
        assertEquals(2, sleeps.size());
    }

    @Test
    void shouldNotRetryRefusedIdempotentRequest() {
        AtomicInteger calls = new AtomicInteger();

        BlobException e = assertThrows(BlobException.class, () -> loop.idempotent("get of k", () -> {
            calls.incrementAndGet();
            throw StorageErrors.status(403, "AuthorizationFailure");
        }));
        assertEquals(BlobException.class, e.getClass());
        assertEquals(1, calls.get());
    }

    @Test
    void shouldGiveUpIdempotentRequestAsUnavailable() {
        assertThrows(BlobUnavailableException.class, () -> loop.idempotent("list", () -> {
            throw refused();
        }));
        assertEquals(4, sleeps.size());
    }

    @Test
    void shouldSayWhereAndWhyTheLastAttemptFailedWhenNoMessageInItsChainDoes() {
        RuntimeException silent = new RuntimeException(new ConnectException());

        BlobUnavailableException e = assertThrows(BlobUnavailableException.class,
            () -> loop.idempotent("create container", () -> {
                throw silent;
            }));
        assertEquals("create container at parts failed after 5 attempts: could not connect "
            + "(java.net.ConnectException)", e.getMessage());
    }

    @Test
    void shouldLogEveryRetriedAttemptAtDebugAndNothingAbove() {
        Logger logger = (Logger) LoggerFactory.getLogger(RetryLoop.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        Level level = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        logger.setAdditive(false);
        logger.addAppender(events);
        try {
            assertThrows(BlobWriteFailedException.class, () -> loop.putIfAbsent(storage.thenFail(5, refused()), "k",
                DATA, null));
        } finally {
            logger.detachAppender(events);
            logger.setAdditive(true);
            logger.setLevel(level);
        }
        assertEquals(4, events.list.size(), events.list.toString());
        for (int i = 0; i < 4; i++) {
            ILoggingEvent event = events.list.get(i);
            assertEquals(Level.DEBUG, event.getLevel());
            assertEquals("put of 3 bytes at parts/k: attempt " + (i + 1) + " of 5 failed, retrying in "
                + sleeps.get(i).toMillis() + " ms: could not connect (java.net.ConnectException: Connection refused)",
                event.getFormattedMessage());
        }
    }

    private static RuntimeException timeout() {
        return new UncheckedIOException(new HttpTimeoutException("request timed out"));
    }

    private static RuntimeException refused() {
        return new UncheckedIOException(new ConnectException("Connection refused"));
    }
}
