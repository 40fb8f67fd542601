package io.mvsink.cli;

import io.mvsink.Wiring;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.gc.BlobGc;
import io.mvsink.gc.GcResult;
import java.time.Duration;
import java.util.Map;
import java.util.HashMap;
import java.util.concurrent.Callable;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "gc", description = "Deletes the shard's blobs that no state references once they are older than "
    + "the grace period: gc.grace.ms or --grace-ms, or the grace the shard's appender recorded in the consensus topic "
    + "if that is larger (its appenders seal batches up to half of it old). Never deletes a referenced blob, one compaction retired less than the grace "
    + "ago, another owner's blob (another Kafka cluster, application.id or consensus.topic), a blob without an "
    + "owner or with the owner of versions before owners named the Kafka cluster (unless --claim-unowned), or "
    + "anything outside the shard's blob prefix; deletes nothing while the shard has no appends or no recorded "
    + "grace. Prints "
    + "one summary line on stderr; exit 3 if it stopped early because reading and deleting took longer than a "
    + "quarter of the grace (run it again).")
final class GcCommand implements Callable<Integer> {
    @Mixin
    Settings settings;

    @Option(names = "--shard", description = "The shard to collect (default: the configured shard); its blob prefix "
        + "is <shard>/ unless blob.prefix is set.")
    String shard;

    @Option(names = "--grace-ms", paramLabel = "MS", description = "Grace period (default: gc.grace.ms); never less "
        + "than gc.grace.ms. The shard's recorded grace wins where it is larger.")
    Long graceMs;

    @Option(names = "--claim-unowned", description = "Also collect blobs under the prefix that have no owner "
        + "(written by versions before owners), or the shard's owner without the Kafka cluster "
        + "(<consensus topic>/<shard>, written by versions before owners named the cluster), as this shard's. "
        + "Only when no other app and no other Kafka cluster writes under the prefix: their old parts would be "
        + "deleted.")
    boolean claimUnowned;

    @Option(names = "--dry-run", description = "Delete nothing; print the keys it would delete, one per line on stdout.")
    boolean dryRun;

    @Override
    public Integer call() {
        MvsinkConfig config = config();
        long configuredGrace = config.getLong(MvsinkConfig.GC_GRACE_MS);
        long grace = graceMs != null ? graceMs : configuredGrace;
        if (grace < configuredGrace) {
            throw new IllegalArgumentException("--grace-ms " + grace + " is below " + MvsinkConfig.GC_GRACE_MS
                + " (" + configuredGrace + "): a running appender may still seal a batch whose parts are that old");
        }
        Map<String, Object> props = config.kafkaClientProps();
        BlobOwner owner;
        GcResult result;
        // the blob options first: a bad one is refused at once, before the cluster is asked for its id
        try (BlobStore blobs = Wiring.blobs(config)) {
            owner = Wiring.blobOwner(config);
            BlobGc own = new BlobGc(blobs, config.blobPrefix(), owner, grace, Time.SYSTEM);
            BlobGc gc = claimUnowned ? own.claimUnowned() : own;
            result = gc.run(() -> ConsensusReader.read(props, config.consensusTopic(), config.shard(),
                Duration.ofSeconds(60)), dryRun);
        }
        if (dryRun) {
            result.deleted().forEach(System.out::println);
        }
        System.err.println("gc: shard " + config.shard() + ", prefix " + config.blobPrefix() + ", owner "
            + owner.value() + (claimUnowned ? " (claiming unowned blobs)" : "") + ": " + result.summary());
        return result.outcome() == GcResult.Outcome.STALE_STATE ? ExitCodes.GC_STOPPED_EARLY : ExitCodes.OK;
    }

    /**
     * The options, with {@code --shard} as the shard's name. An explicit blob.prefix belongs to the
     * configured shard, so pointing it at another shard would collect that prefix against the wrong
     * state: refused.
     */
    private MvsinkConfig config() {
        MvsinkConfig configured = settings.config();
        if (shard == null || shard.equals(configured.shard())) {
            return configured;
        }
        if (!configured.getString(MvsinkConfig.BLOB_PREFIX).isEmpty()) {
            throw new IllegalArgumentException("--shard " + shard + " with " + MvsinkConfig.BLOB_PREFIX + "="
                + configured.getString(MvsinkConfig.BLOB_PREFIX) + " (the prefix of shard " + configured.shard()
                + "): set " + MvsinkConfig.SHARD_NAME + " and " + MvsinkConfig.BLOB_PREFIX + " of the shard instead");
        }
        Map<String, Object> props = new HashMap<>(configured.originals());
        props.put(MvsinkConfig.SHARD_NAME, shard);
        return new MvsinkConfig(props);
    }
}
