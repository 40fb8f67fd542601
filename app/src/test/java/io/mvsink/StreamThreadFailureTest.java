package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.registry.RegistryUnavailableException;
import java.net.ConnectException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class StreamThreadFailureTest {

    @Test
    void shouldReplaceTheThreadWhenTheRegistryIsUnreachableHoweverDeepTheCause() {
        RegistryUnavailableException unavailable =
            new RegistryUnavailableException("registry unreachable", new ConnectException("refused"));
        StreamsException wrapped = new StreamsException("failed to process", new StreamsException(unavailable));

        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, MvsinkApp.onStreamThreadFailure("s", wrapped));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, MvsinkApp.onStreamThreadFailure("s", unavailable));
    }

    @Test
    void shouldShutDownOnAnyOtherFailure() {
        StreamsException other = new StreamsException("failed", new IllegalStateException("bug"));

        assertEquals(StreamThreadExceptionResponse.SHUTDOWN_CLIENT, MvsinkApp.onStreamThreadFailure("s", other));
    }
}
