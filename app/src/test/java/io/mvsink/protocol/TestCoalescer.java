package io.mvsink.protocol;

import io.mvsink.batch.PartEncoder;
import io.mvsink.batch.ShardSink;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.utils.Time;

/**
 * The coalescer of a test, built by name (in the spirit of Iceberg's {@code ChannelTestBase}): a
 * test names what it is about and the fixture fills in the rest, so that no test builds the
 * coalescer by position. Unless named: in-memory blobs and schemas, the system clock, parts cut at
 * 1 MiB without compression, and {@link #settings(CoalescingMode)}.
 *
 * <pre>{@code
 * BatchCoalescer batches = TestCoalescer.of(BARRIER).time(time).blobs(blobs)
 *     .settings(s -> s.withBarrierTimeout(Duration.ofSeconds(5)))
 *     .shard(TestCoalescer.sink("s", metrics))
 *     .build();
 * }</pre>
 */
public final class TestCoalescer {
    private CoalescerSettings settings;
    private BlobStore blobs = new InMemoryBlobStore();
    private SchemaRegistry schemas = new InMemorySchemaRegistry();
    private Time time = Time.SYSTEM;
    private PartEncoder encoder = new PartEncoder("null", 1 << 20);
    private Ownership ownership = Ownership.FIRST_POLLER;
    private ShardSink sink;
    private RangeMinter minter;

    private TestCoalescer(CoalescingMode mode) {
        this.settings = settings(mode);
    }

    /**
     * A test's settings in {@code mode}: a barrier of 1 s, no linger (a best-effort builder closes
     * as soon as its work drains, so a test need not wait), 1 MiB of queued contributions, one
     * builder thread.
     */
    public static CoalescerSettings settings(CoalescingMode mode) {
        return CoalescerSettings.of(mode).withBarrierTimeout(Duration.ofSeconds(1)).withLinger(Duration.ZERO)
            .withMaxQueuedBytes(1 << 20).withThreads(1);
    }

    public static TestCoalescer of(CoalescingMode mode) {
        return new TestCoalescer(mode);
    }

    /** A shard whose parts go under {@code <shard>/}, owned by {@code test-consensus/<shard>}. */
    public static ShardSink sink(String shard, ShardMetrics metrics) {
        return new ShardSink(shard, shard + "/", "test-consensus/" + shard, metrics);
    }

    /** Changes the settings, e.g. {@code s -> s.withThreads(2)}. */
    public TestCoalescer settings(UnaryOperator<CoalescerSettings> change) {
        this.settings = change.apply(settings);
        return this;
    }

    public TestCoalescer blobs(BlobStore blobs) {
        this.blobs = blobs;
        return this;
    }

    public TestCoalescer schemas(SchemaRegistry schemas) {
        this.schemas = schemas;
        return this;
    }

    public TestCoalescer time(Time time) {
        this.time = time;
        return this;
    }

    /** Parts cut at {@code targetBytes} encoded bytes, uncompressed. */
    public TestCoalescer parts(long targetBytes) {
        return encoder(new PartEncoder("null", targetBytes));
    }

    public TestCoalescer encoder(PartEncoder encoder) {
        this.encoder = encoder;
        return this;
    }

    /** Another ownership rule: only for a test that breaks the rule on purpose. */
    TestCoalescer ownership(Ownership ownership) {
        this.ownership = ownership;
        return this;
    }

    /** Declares {@code sink}'s shard on the built coalescer (each task cutting its own ranges). */
    public TestCoalescer shard(ShardSink sink) {
        return shard(sink, null);
    }

    /** Declares {@code sink}'s shard, whose ranges {@code minter} mints (null: none). */
    public TestCoalescer shard(ShardSink sink, RangeMinter minter) {
        this.sink = sink;
        this.minter = minter;
        return this;
    }

    public BatchCoalescer build() {
        BatchCoalescer batches = new BatchCoalescer(settings, blobs, schemas, encoder, time, ownership);
        if (sink != null) {
            batches.addShard(sink, minter);
        }
        return batches;
    }
}
