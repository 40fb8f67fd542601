package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.registry.RegistryUnavailableException;
import io.mvsink.topology.PartitionCountChangedException;
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
    void shouldReplaceTheThreadWhenItsTransactionWasAbortedOrFenced() {
        // as seen in ProcessKillIT: a commit during a rebalance after an instance was killed
        Exception commit = new org.apache.kafka.streams.errors.StreamsException("Error encountered trying to commit a "
            + "transaction", new org.apache.kafka.common.errors.InvalidTxnStateException("invalid state"));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, MvsinkApp.onStreamThreadFailure("s", commit));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, MvsinkApp.onStreamThreadFailure("s",
            new org.apache.kafka.streams.errors.StreamsException(new org.apache.kafka.common.errors.ProducerFencedException("fenced"))));
        assertEquals(StreamThreadExceptionResponse.REPLACE_THREAD, MvsinkApp.onStreamThreadFailure("s",
            new org.apache.kafka.common.errors.InvalidProducerEpochException("old epoch")));
    }

    @Test
    void shouldShutDownOnAnyOtherFailure() {
        StreamsException other = new StreamsException("failed", new IllegalStateException("bug"));

        assertEquals(StreamThreadExceptionResponse.SHUTDOWN_CLIENT, MvsinkApp.onStreamThreadFailure("s", other));
    }

    @Test
    void shouldShutDownNotReplaceTheThreadWhenTheCorrectionsTopicGainedPartitions() {
        StreamsException grew = new StreamsException("failed to process",
            new PartitionCountChangedException("s", "c", 4, 6));

        assertEquals(StreamThreadExceptionResponse.SHUTDOWN_CLIENT, MvsinkApp.onStreamThreadFailure("s", grew));
    }
}
