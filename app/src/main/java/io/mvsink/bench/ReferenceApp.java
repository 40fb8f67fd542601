package io.mvsink.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The catch-up bench's reference: a plain exactly-once Kafka Streams app that does one get and one
 * put per input record in a changelogged RocksDB store (a count per key), the floor of work of
 * mvsink's architecture. Run as a child JVM of the bench until SIGTERM.
 *
 * <p>Arguments: bootstrap servers, input topic, application id, stream threads, state directory.
 */
public final class ReferenceApp {
    static final String STORE = "counts";
    /** Progress records have no key; they count under this one (per task). */
    private static final Bytes PROGRESS_KEY = Bytes.wrap("~progress".getBytes(StandardCharsets.UTF_8));

    private ReferenceApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: ReferenceApp <bootstrap> <topic> <application id> <threads> <state dir>");
        }
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[2]);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.parseInt(args[3]));
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        KafkaStreams streams = new KafkaStreams(topology(args[1]), props);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            stopped.countDown();
        }, "reference-shutdown"));
        streams.start();
        stopped.await();
    }

    static Topology topology(String topic) {
        Topology topology = new Topology();
        topology.addSource("corrections", new ByteArrayDeserializer(), new ByteArrayDeserializer(), topic);
        topology.addProcessor("count", CountPerKey::new, "corrections");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE),
            Serdes.Bytes(), Serdes.ByteArray()), "count");
        return topology;
    }

    /** One get and one put per record. */
    private static final class CountPerKey implements Processor<byte[], byte[], Void, Void> {
        private KeyValueStore<Bytes, byte[]> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            Bytes key = record.key() == null ? PROGRESS_KEY : Bytes.wrap(record.key());
            byte[] old = store.get(key);
            long count = old == null ? 0 : ByteBuffer.wrap(old).getLong();
            store.put(key, ByteBuffer.allocate(Long.BYTES).putLong(count + 1).array());
        }
    }
}
