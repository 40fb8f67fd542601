package io.mvsink.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * The changelog topics mvsink creates ahead of Kafka Streams' first rebalance are exactly those of
 * the topology's stores as Kafka Streams describes them: every store of a sub-topology that reads
 * the corrections topic has one partition per corrections partition, the store of the one that
 * reads the reports topic one per reports partition; the global store has none. A store added to the
 * topology without its changelog here fails this test (Kafka Streams would still create it, in the
 * first rebalance, as before).
 */
class SinkTopologyChangelogsTest {

    @Test
    void shouldNameTheChangelogOfEveryLoggedStoreWithItsSubTopologysPartitions() {
        SinkTopology.Topics topics = TopologyDocs.EXAMPLE_TOPICS;
        Map<String, Integer> partitionsOfTopic = Map.of(topics.corrections(), 8, topics.reports(), 1);
        Map<String, Integer> described = new TreeMap<>();
        for (TopologyDescription.Subtopology sub : TopologyDocs.example().describe().subtopologies()) {
            int partitions = sub.nodes().stream().filter(n -> n instanceof TopologyDescription.Source)
                .flatMap(n -> ((TopologyDescription.Source) n).topicSet().stream())
                .mapToInt(partitionsOfTopic::get).max().orElseThrow();
            sub.nodes().stream().filter(n -> n instanceof TopologyDescription.Processor)
                .flatMap(n -> ((TopologyDescription.Processor) n).stores().stream())
                .forEach(store -> described.put("app-" + store + "-changelog", partitions));
        }

        assertEquals(described, SinkTopology.changelogs("app", 8, 1));
    }
}
