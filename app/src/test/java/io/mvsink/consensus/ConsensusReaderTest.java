package io.mvsink.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ConsensusReaderTest {
    private static final TopicPartition TP = new TopicPartition("t", 0);

    @Test
    void shouldHoldTheLiveShardNotItsHistoryWhileReadingAnUncleanedTopic() {
        // 2,000 seals of 16 KiB inline data each (31 MiB of history), merged away every 10 seals and
        // rolled up every 100 appends: the live shard never holds more than 10 inline batches (160 KiB)
        SealHistory history = new SealHistory("s", 2_000, 16 * 1024, 10, 100);
        HistoryConsumer consumer = new HistoryConsumer(history);
        long before = heapAfterGc();

        ShardState state = ConsensusReader.readToEnd(consumer, "t", "s", Duration.ofSeconds(60)).state();

        assertEquals(history.upper(), state.upper());
        assertEquals(1, state.batches().size(), "the last merge left one batch");
        long held = consumer.heapNearTheEnd - before;
        assertTrue(held < 8L << 20, "a reader near the end of 31 MiB of superseded diffs holds "
            + (held >> 20) + " MiB; the live shard is 160 KiB");
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Hands out a {@link SealHistory} 100 records per poll, generating them as it goes (so the test
     * holds none of them), and measures the heap in use after a full GC just before the last poll:
     * what the reader holds then is what it keeps of everything it read.
     */
    private static final class HistoryConsumer extends MockConsumer<String, byte[]> {
        private final Iterator<Map.Entry<String, byte[]>> records;
        private long offset;
        private long heapNearTheEnd = -1;

        HistoryConsumer(SealHistory history) {
            super("earliest");
            long total = history.records();
            this.records = history.iterator();
            assign(List.of(TP));
            updateBeginningOffsets(Map.of(TP, 0L));
            updateEndOffsets(Map.of(TP, total));
        }

        @Override
        public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
            for (int i = 0; i < 100 && records.hasNext(); i++) {
                Map.Entry<String, byte[]> r = records.next();
                addRecord(new ConsumerRecord<>("t", 0, offset++, r.getKey(), r.getValue()));
            }
            if (!records.hasNext() && heapNearTheEnd < 0) {
                heapNearTheEnd = heapAfterGc();
            }
            return super.poll(timeout);
        }
    }
}
