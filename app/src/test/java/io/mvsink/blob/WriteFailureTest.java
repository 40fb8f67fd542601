package io.mvsink.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class WriteFailureTest {

    @Test
    void shouldSeeKeyTakenIn409And412() {
        assertEquals(WriteFailure.KEY_TAKEN, WriteFailure.classify(StorageErrors.status(409, "BlobAlreadyExists")));
        assertEquals(WriteFailure.KEY_TAKEN, WriteFailure.classify(StorageErrors.status(412, "ConditionNotMet")));
    }

    @Test
    void shouldRefuseOther4xxWithoutRetry() {
        for (int status : new int[] {400, 401, 403, 404, 413}) {
            assertEquals(WriteFailure.REFUSED, WriteFailure.classify(StorageErrors.status(status, "X")), "status " + status);
        }
        assertFalse(WriteFailure.REFUSED.retriable());
    }

    @Test
    void shouldTreatThrottlingTimeoutAndServerErrorsAsAmbiguous() {
        for (int status : new int[] {408, 429, 500, 502, 503, 504}) {
            assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(StorageErrors.status(status, "X")), "status " + status);
        }
        assertTrue(WriteFailure.AMBIGUOUS.retriable());
    }

    @Test
    void shouldTreatTimeoutsAndResetsAsAmbiguous() {
        assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(new UncheckedIOException(new HttpTimeoutException("t"))));
        assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(new RuntimeException(new TimeoutException("t"))));
        assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(
                new UncheckedIOException(new SocketException("Connection reset"))));
        assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(new UncheckedIOException(new IOException("eof"))));
    }

    @Test
    void shouldTreatConnectionRefusedAsNotSent() {
        assertEquals(WriteFailure.NOT_SENT, WriteFailure.classify(
                new UncheckedIOException(new ConnectException("Connection refused"))));
        assertEquals(WriteFailure.NOT_SENT, WriteFailure.classify(
                new RuntimeException(new IOException(new HttpConnectTimeoutException("connect timed out")))));
        assertTrue(WriteFailure.NOT_SENT.retriable());
    }

    @Test
    void shouldTreatUnknownFailuresAsAmbiguous() {
        assertEquals(WriteFailure.AMBIGUOUS, WriteFailure.classify(new IllegalStateException("?")));
    }
}
