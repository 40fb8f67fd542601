package io.mvsink.batch;

import io.mvsink.avro.Contribution;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.time.TimeRange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.utils.Time;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A shared batch's writer's cost per added part, in a batch of 1,000 parts and in one of 100,000
 * (contract invariant 8: adding a part costs O(its size), never a re-scan of what the builder
 * holds, so the two must cost about the same per part; the target is within 1.5x).
 *
 * <p>Every update cuts a part ({@code targetBytes = 1}), the codec is {@code null} (so that a
 * constant compression cost does not hide a growing builder cost), and the blob store discards
 * the bytes. One invocation builds a whole batch — contributions of 8 partitions, then
 * {@link BatchWriter#finish} — and {@link OperationsPerInvocation} turns it into time per part.
 *
 * <p>Run: {@code mvn -B -q -Pjmh -pl app test-compile exec:exec -Djmh.args="-wi 2 -i 3 -f 1"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class BatchWriterBenchmark {
    private static final int PARTITIONS = 8;
    private static final String SHARD = "bench";

    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final PartEncoder encoder = new PartEncoder("null", 1);
    private final DiscardingBlobStore blobs = new DiscardingBlobStore();
    private final ShardSink sink = new ShardSink(SHARD, SHARD + "/", "test-consensus/" + SHARD,
        new ShardMetrics(SHARD));
    private List<ContributionData> small;
    private List<ContributionData> large;

    @Setup
    public void setUp() throws IOException {
        int schemaId = schemas.register(SHARD + "-value", Workload.ROW_SCHEMA);
        small = contributions(schemaId, 1_000);
        large = contributions(schemaId, 100_000);
    }

    @Benchmark
    @OperationsPerInvocation(1_000)
    public Object perPartIn1kPartBatch() {
        return build(small);
    }

    @Benchmark
    @OperationsPerInvocation(100_000)
    public Object perPartIn100kPartBatch() {
        return build(large);
    }

    private Object build(List<ContributionData> contributions) {
        BatchWriter writer = new BatchWriter(SHARD, 1000, 2000, "bench-batch", sink, Time.SYSTEM);
        for (ContributionData c : contributions) {
            writer.add(c, schemas, encoder, blobs);
        }
        List<Contribution> described = new ArrayList<>();
        for (ContributionData c : contributions) {
            described.add(new Contribution(c.partition(), c.lower(), c.upper(), (long) c.updates().size()));
        }
        return writer.finish(blobs, described, 0);
    }

    /** {@code parts} updates (one part each) spread over the partitions' contributions. */
    private static List<ContributionData> contributions(int schemaId, int parts) throws IOException {
        List<ContributionData> out = new ArrayList<>(PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            List<Update> updates = new ArrayList<>();
            for (int i = p; i < parts; i += PARTITIONS) {
                updates.add(new Update(1000 + i % 1000, schemaId, row(i), 1));
            }
            out.add(new ContributionData(SHARD, p, new TimeRange(1000, 2000), updates, 0));
        }
        return out;
    }

    private static byte[] row(long id) throws IOException {
        GenericRecord row = new GenericData.Record(Workload.ROW_SCHEMA);
        row.put("id", id);
        row.put("category", "books");
        row.put("amount", id % 100);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(Workload.ROW_SCHEMA).write(row, encoder);
        encoder.flush();
        return bytes.toByteArray();
    }
}
