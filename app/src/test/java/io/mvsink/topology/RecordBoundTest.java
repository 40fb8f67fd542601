package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.RecordBound;
import org.junit.jupiter.api.Test;

/** The largest consensus record mvsink writes: the smaller of the topic's and the producer's limit, less headroom. */
class RecordBoundTest {
    @Test
    void shouldTakeTheSmallerOfTheTopicsAndTheProducersLimitLessHeadroom() {
        assertEquals(64 * 1024 - RecordBound.HEADROOM, ConsensusTopicCheck.recordBound(64 * 1024, 1 << 20).bytes(), "the topic's");
        assertEquals(200_000 - RecordBound.HEADROOM, ConsensusTopicCheck.recordBound(1 << 20, 200_000).bytes(), "the producer's");
        assertEquals(RecordBound.PRODUCER_DEFAULT_MAX_REQUEST_SIZE - RecordBound.HEADROOM, RecordBound.DEFAULT.bytes(),
            "Kafka's defaults: the producer's 1 MiB is the smaller");
    }

    @Test
    void shouldFitUpToItsBytesExactly() {
        RecordBound bound = ConsensusTopicCheck.recordBound(10_000, 10_000);
        assertTrue(bound.fits(10_000 - RecordBound.HEADROOM));
        assertTrue(!bound.fits(10_000 - RecordBound.HEADROOM + 1));
    }

    @Test
    void shouldRefuseLimitsTooSmallForAConsensusRecordNamingThem() {
        TopicException e = assertThrows(TopicException.class, () -> ConsensusTopicCheck.recordBound(2_000, 1 << 20));
        assertTrue(e.getMessage().contains("max.message.bytes (2000)"), e.getMessage());
    }

    @Test
    void shouldNotOverflowOnHugeLimits() {
        assertEquals(Integer.MAX_VALUE, ConsensusTopicCheck.recordBound(Long.MAX_VALUE, Long.MAX_VALUE).bytes());
    }
}
