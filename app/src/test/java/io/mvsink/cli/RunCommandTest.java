package io.mvsink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.topology.PartitionCountChangedException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class RunCommandTest {

    @Test
    void shouldSayWhatStoppedTheAppNotTheStreamsWrapper() {
        PartitionCountChangedException grew = new PartitionCountChangedException("s", "c", 4, 6);
        StreamsException wrapped = new StreamsException("Exception caught in process", new StreamsException(grew));

        assertEquals(grew.getMessage(), RunCommand.rootMessage(wrapped));
    }
}
