package io.mvsink;

import static io.mvsink.MvsinkApp.inlineMaxBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.protocol.RecordBound;
import io.mvsink.topology.ConsensusTopicCheck;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The inline limit per batch the app gives its builder: inline.max.bytes, capped by the record bound per partition. */
class MvsinkAppInlineLimitTest {
    private static final RecordBound DEFAULT = RecordBound.DEFAULT;
    private static final long HALF = DEFAULT.bytes() / 2;

    @Test
    void shouldKeepTheConfiguredLimitBelowTheCap() {
        assertEquals(4096, inlineMaxBytes(4096, 4, DEFAULT), "cap 128 KiB for 4 partitions");
        assertEquals(4096, inlineMaxBytes(4096, 127, DEFAULT), "cap just above 4096 for 127 partitions");
    }

    @Test
    void shouldCapAtHalfTheRecordBoundDividedByThePartitions() {
        assertEquals(HALF / 16, inlineMaxBytes(65_536, 16, DEFAULT));
        assertEquals(HALF / 129, inlineMaxBytes(4096, 129, DEFAULT), "129 partitions: rounded down");
    }

    @Test
    void shouldCapBySmallConsensusTopics() {
        RecordBound small = ConsensusTopicCheck.recordBound(64 * 1024, 1 << 20);
        assertEquals((64 * 1024 - RecordBound.HEADROOM) / 2 / 8, inlineMaxBytes(65_536, 8, small),
            "a 64 KiB consensus topic over 8 partitions: under 4 KiB per batch");
    }

    @Test
    void shouldReadTheProducersMaxRequestSizeFromTheStreamsOverridesOrItsDefault() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "a");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092");
        assertEquals(RecordBound.PRODUCER_DEFAULT_MAX_REQUEST_SIZE, MvsinkApp.producerMaxRequestSize(props));
        props.put("max.request.size", "300000");
        assertEquals(300_000, MvsinkApp.producerMaxRequestSize(props), "a client-wide override");
        props.put(StreamsConfig.producerPrefix("max.request.size"), "200000");
        assertEquals(200_000, MvsinkApp.producerMaxRequestSize(props), "the producer's own wins");
    }

    @Test
    void shouldKeepZeroAsZero() {
        assertEquals(0, inlineMaxBytes(0, 1, DEFAULT));
        assertEquals(0, inlineMaxBytes(0, 1000, DEFAULT));
    }

    @Test
    void shouldKeepEveryPartitionsInlineBatchTogetherWithinHalfAnAppendForManyPartitions() {
        for (int partitions : new int[] {1, 7, 100, 1000, 10_000}) {
            long limit = inlineMaxBytes(4096, partitions, DEFAULT);
            assertTrue(limit > 0 && limit * partitions <= HALF, partitions + ": " + limit);
        }
    }

    @Test
    void shouldTurnInlineOffWhenTheCapRoundsDownToZero() {
        assertEquals(1, inlineMaxBytes(4096, (int) HALF, DEFAULT));
        assertEquals(0, inlineMaxBytes(4096, (int) HALF + 1, DEFAULT));
    }
}
