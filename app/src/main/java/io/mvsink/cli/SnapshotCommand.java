package io.mvsink.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mvsink.Wiring;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardPlacement;
import io.mvsink.consensus.ShardState;
import io.mvsink.read.SnapshotReader;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "snapshot", description = "Rebuilds a shard's state from the consensus topic, reads its parts into "
    + "the latest schema of the shard's subject and prints each row with its net count as a JSON line.")
final class SnapshotCommand implements Callable<Integer> {
    @Mixin
    Settings settings;

    @Option(names = "--shard", description = "The shard to read (default: the configured shard).")
    String shard;

    @Option(names = "--as-of", description = "Read updates with time <= T; T must be at or above the shard's since "
        + "and below its upper (default: everything sealed).")
    Long asOf;

    @Option(names = "--subject", description = "The registry subject whose latest schema rows are read into "
        + "(default: the shard's row subject, by value.subject.name.strategy: <corrections.topic>-value unless set otherwise).")
    String subject;

    @Override
    public Integer call() throws Exception {
        MvsinkConfig config = settings.config();
        String name = shard != null ? shard : config.shard();
        Map<String, Object> props = config.kafkaClientProps();
        ShardState state = ConsensusReader.read(props, config.consensusTopic(), name, Duration.ofSeconds(60));
        if (state.seqno() == 0) {
            System.err.println("snapshot: shard " + name + " has no appends yet");
            return 0;
        }
        long time = asOf(state, asOf);
        String rows = subject != null ? subject : config.rowSubject();
        try (BlobStore blobs = Wiring.blobs(config)) {
            ShardPlacement.requireLocation(name, state.location(), blobs.location(), MvsinkConfig.BLOB_CONTAINER);
            print(new SnapshotReader(blobs, Wiring.registry(config), rows).read(state, time), System.out);
        }
        System.err.println("snapshot: shard " + name + " as of " + time + " (upper " + state.upper()
            + ", " + state.batches().size() + " batches)");
        return 0;
    }

    /**
     * The time to read: {@code asOf}, or everything sealed if null.
     *
     * @throws IllegalArgumentException naming the since or the upper if the shard cannot be read as of it
     */
    static long asOf(ShardState state, Long asOf) {
        if (asOf == null) {
            return state.upper() - 1;
        }
        if (asOf < state.since()) {
            throw new IllegalArgumentException("--as-of " + asOf + " is below the since of shard " + state.shard()
                + ", " + state.since() + ": compaction may have advanced older times to since, so the shard can "
                + "only be read as of " + state.since() + " or later");
        }
        if (asOf >= state.upper()) {
            throw new IllegalArgumentException("--as-of " + asOf + " is not below the upper of shard " + state.shard()
                + ", " + state.upper() + ": only times below the upper are sealed");
        }
        return asOf;
    }

    static void print(Map<String, Long> rows, PrintStream out) throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (Map.Entry<String, Long> row : rows.entrySet()) {
            ObjectNode line = json.createObjectNode();
            line.set("row", json.readTree(row.getKey()));
            line.put("count", row.getValue());
            out.println(json.writeValueAsString(line));
        }
    }
}
