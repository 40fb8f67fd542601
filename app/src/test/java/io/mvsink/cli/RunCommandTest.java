package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.topology.PartitionCountChangedException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class RunCommandTest {

    @Test
    void shouldSayWhatStoppedTheAppNotTheStreamsWrapper() {
        PartitionCountChangedException grew = new PartitionCountChangedException("s", "c", 4, 6);
        StreamsException wrapped = new StreamsException("Exception caught in process", new StreamsException(grew));

        assertEquals(grew.getMessage(), RunCommand.rootMessage(wrapped));
    }

    @Test
    void shouldTakeAStopForAFailureOnlyWhenNoStopWasAskedFor() {
        AtomicBoolean running = new AtomicBoolean(false);
        AtomicBoolean stopping = new AtomicBoolean(true);
        assertTrue(RunCommand.stoppedByItself(KafkaStreams.State.NOT_RUNNING, running));
        assertTrue(RunCommand.stoppedByItself(KafkaStreams.State.ERROR, running));
        assertFalse(RunCommand.stoppedByItself(KafkaStreams.State.RUNNING, running));
        assertFalse(RunCommand.stoppedByItself(KafkaStreams.State.NOT_RUNNING, stopping),
            "the shutdown hook's close makes the app NOT_RUNNING: not a failure");
        assertFalse(RunCommand.stoppedByItself(KafkaStreams.State.ERROR, stopping));
    }
}
