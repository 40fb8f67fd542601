package io.mvsink.topology;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds mvsink's topology for one shard:
 * <pre>
 * corrections ─► correction-buffer (buffer, progress, schema-decision stores) ─► reports, dead-letter
 * reports ─► appender (appender store) ─► consensus
 * consensus ─► consensus-mirror (global store, read by correction-buffer for feedback)
 * </pre>
 */
public final class SinkTopology {
    private SinkTopology() {
    }

    /** Topic names of one shard's topology. */
    public record Topics(String corrections, String reports, String consensus, String deadLetter) {
    }

    public static Topology build(Topics topics, SinkContext sink) {
        Topology topology = new Topology();
        ByteArrayDeserializer bytesIn = new ByteArrayDeserializer();
        ByteArraySerializer bytesOut = new ByteArraySerializer();

        // earliest is Kafka Streams' own default; named only because this overload takes an extractor
        topology.addSource(AutoOffsetReset.earliest(), StoreNames.CORRECTIONS_SOURCE, new InvalidTimestampMarker(),
            bytesIn, bytesIn, topics.corrections());
        // the global store's writes, counted by its processor: tasks read it again only once it moved
        AtomicLong mirrorWrites = new AtomicLong();
        topology.addProcessor(StoreNames.CORRECTIONS, () -> new CorrectionProcessor(sink, mirrorWrites::get),
            StoreNames.CORRECTIONS_SOURCE);
        topology.addStateStore(bufferStore(sink.intervalMs(), sink.recordBytes()), StoreNames.CORRECTIONS);
        topology.addStateStore(progressStore(), StoreNames.CORRECTIONS);
        topology.addStateStore(schemaDecisionStore(), StoreNames.CORRECTIONS);
        topology.addSink(StoreNames.REPORTS_SINK, topics.reports(), bytesOut, bytesOut, StoreNames.CORRECTIONS);
        topology.addSink(StoreNames.DEAD_LETTER_SINK, topics.deadLetter(), bytesOut, bytesOut, StoreNames.CORRECTIONS);

        topology.addSource(StoreNames.REPORTS_SOURCE, bytesIn, bytesIn, topics.reports());
        topology.addProcessor(StoreNames.APPENDER_NODE, () -> new AppenderProcessor(sink), StoreNames.REPORTS_SOURCE);
        topology.addStateStore(appenderStore(), StoreNames.APPENDER_NODE);
        topology.addSink(StoreNames.CONSENSUS_SINK, topics.consensus(), bytesOut, bytesOut, StoreNames.APPENDER_NODE);

        topology.addGlobalStore(consensusMirrorStore(), StoreNames.CONSENSUS_SOURCE,
            new StringDeserializer(), bytesIn, topics.consensus(), StoreNames.CONSENSUS_MIRROR,
            () -> new ConsensusMirror(StoreNames.CONSENSUS, mirrorWrites));
        return topology;
    }

    /**
     * The changelog topics Kafka Streams makes for this topology's logged stores
     * ({@code <application.id>-<store>-changelog}) with their partition counts: a store of the
     * corrections tasks has one partition per corrections partition, the appender's store one per
     * reports partition. The consensus mirror is a global store, restored from the consensus topic
     * itself (no changelog).
     */
    public static Map<String, Integer> changelogs(String applicationId, int correctionsPartitions, int reportsPartitions) {
        Map<String, Integer> changelogs = new TreeMap<>();
        for (String store : List.of(StoreNames.BUFFER, StoreNames.PROGRESS, StoreNames.SCHEMA_DECISIONS)) {
            changelogs.put(changelog(applicationId, store), correctionsPartitions);
        }
        changelogs.put(changelog(applicationId, StoreNames.APPENDER), reportsPartitions);
        return changelogs;
    }

    private static String changelog(String applicationId, String store) {
        return applicationId + "-" + store + "-changelog";
    }

    /** Blocks no larger than the producer sends ({@code recordBytes}, its max.request.size less headroom). */
    private static StoreBuilder<?> bufferStore(long intervalMs, int recordBytes) {
        return new CorrectionBufferBuilder(Stores.persistentKeyValueStore(StoreNames.BUFFER), intervalMs,
            Math.min(CorrectionBuffer.BLOCK_LIMIT, recordBytes));
    }

    /**
     * Cached: a task saves its progress at every progress record and late update, and Kafka Streams'
     * record cache keeps the last value until the task commits, so that each commit writes one put
     * and one changelog record per task instead of one per save (2.9% of a wide catch-up's samples).
     * The cache is flushed before the commit, in the same transaction, as the buffer's blocks are.
     */
    private static StoreBuilder<?> progressStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.PROGRESS),
            Serdes.Integer(), Serdes.ByteArray()).withCachingEnabled();
    }

    private static StoreBuilder<?> schemaDecisionStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.SCHEMA_DECISIONS),
            Serdes.Integer(), Serdes.ByteArray());
    }

    private static StoreBuilder<?> appenderStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.APPENDER),
            Serdes.String(), Serdes.ByteArray());
    }

    private static StoreBuilder<?> consensusMirrorStore() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(StoreNames.CONSENSUS),
            Serdes.String(), Serdes.ByteArray()).withLoggingDisabled();
    }
}
