package io.mvsink;

import io.mvsink.metrics.LaunchLog;
import io.mvsink.protocol.CoalescerSettings;
import io.mvsink.protocol.CoalescingMode;
import io.mvsink.batch.PartEncoder;
import io.mvsink.protocol.BatchCoalescer;
import io.mvsink.blob.AzureBlobStore;
import io.mvsink.blob.BlobException;
import io.mvsink.blob.BlobOwner;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.StartingBlobStore;
import io.mvsink.blob.BlobStoreSettings;
import io.mvsink.blob.BlobUnavailableException;
import io.mvsink.config.BlobAccess;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.RegistryClient;
import io.mvsink.registry.RegistrySettings;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.topology.SinkSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Time;

/** Builds the real collaborators of an app from its configuration. */
public final class Wiring {
    private static final long CLUSTER_ID_TIMEOUT_S = 60;

    private Wiring() {
    }

    public static SchemaRegistry registry(MvsinkConfig config) {
        RegistrySettings settings = RegistrySettings.of(config.getString(MvsinkConfig.REGISTRY_URL))
            .withRequestTimeout(Duration.ofMillis(config.getInt(MvsinkConfig.REGISTRY_TIMEOUT_MS)));
        String auth = config.getPassword(MvsinkConfig.REGISTRY_BASIC_AUTH).value();
        if (!auth.isEmpty()) {
            int colon = auth.indexOf(':');
            settings = settings.withBasicAuth(auth.substring(0, colon), auth.substring(colon + 1));
        }
        return new RegistryClient(settings);
    }

    /** The blob store of {@code config}, with account credentials (if any) from the process environment. */
    public static AzureBlobStore blobs(MvsinkConfig config) {
        return blobs(config, System.getenv());
    }

    /**
     * The blob store of {@code config}, reached by the one way {@link BlobAccess} allows with the
     * options and {@code env}. With account credentials the container is created if missing; a
     * (container) SAS token cannot create it, and an Entra ID identity may hold its role on the
     * container alone, so with those it must exist.
     *
     * @throws org.apache.kafka.common.config.ConfigException naming the options (or variables) the
     *     storage client refused, never their values
     * @throws BlobException the container could not be created (storage unreachable, or refusing the
     *     credentials), naming its URL and the options (or variables) to check
     */
    public static AzureBlobStore blobs(MvsinkConfig config, Map<String, String> env) {
        BlobAccess access = config.blobAccess(env);
        String container = config.getString(MvsinkConfig.BLOB_CONTAINER);
        BlobStoreSettings settings = (switch (access.way()) {
            case ACCOUNT -> BlobStoreSettings.fromConnectionString(access.connectionString(), container);
            case SAS -> BlobStoreSettings.fromSasToken(access.endpoint(), access.sasToken(), container);
            case ENTRA -> BlobStoreSettings.fromDefaultAzureCredential(access.endpoint(), container);
        }).withRetries(config.getInt(MvsinkConfig.BLOB_MAX_ATTEMPTS), BlobStoreSettings.DEFAULT_INITIAL_BACKOFF,
                BlobStoreSettings.DEFAULT_MAX_BACKOFF);
        AzureBlobStore store;
        try {
            store = new AzureBlobStore(settings);
        } catch (IllegalArgumentException refused) {
            throw access.invalid(refused);
        }
        if (access.isAccount()) {
            try {
                store.ensureContainer();
            } catch (BlobUnavailableException e) {
                throw new BlobUnavailableException(e.getMessage() + "; check " + access.source()
                    + " and that its endpoint is reachable from here", e);
            } catch (BlobException e) {
                throw new BlobException(e.getMessage() + "; check " + access.source(), e);
            }
        }
        return store;
    }

    /** The owner of {@code config}'s shard's blobs on the Kafka cluster it names (one Admin, closed after). */
    public static BlobOwner blobOwner(MvsinkConfig config) {
        try (Admin admin = Admin.create(config.kafkaClientProps())) {
            return blobOwner(config, admin);
        }
    }

    /**
     * The owner of {@code config}'s shard's blobs on the cluster {@code admin} talks to: its cluster
     * id, the consensus topic and the shard. Two clusters running the same app (same topic names)
     * on one storage container thereby never take each other's parts for their own garbage.
     *
     * @throws KafkaException the cluster id cannot be read (or the cluster has none)
     */
    public static BlobOwner blobOwner(MvsinkConfig config, Admin admin) {
        String clusterId;
        try {
            clusterId = admin.describeCluster().clusterId().get(CLUSTER_ID_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new KafkaException("cannot read the Kafka cluster id (the blob owner names it): "
                + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaException("cannot read the Kafka cluster id (the blob owner names it) within "
                + CLUSTER_ID_TIMEOUT_S + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while reading the Kafka cluster id", e);
        }
        if (clusterId == null || clusterId.isEmpty()) {
            throw new KafkaException("the Kafka cluster has no cluster id: the blob owner needs one");
        }
        return new BlobOwner(clusterId, config.consensusTopic(), config.shard());
    }

    /** The JVM-wide batch coalescer, configured from the app's options. */
    public static BatchCoalescer batches(MvsinkConfig config, BlobStore blobs, SchemaRegistry registry, Time time) {
        return new BatchCoalescer(coalescerSettings(config), blobs, registry, encoder(config), time);
    }

    /** How the coalescer runs, from the app's options. */
    public static CoalescerSettings coalescerSettings(MvsinkConfig config) {
        return new CoalescerSettings(CoalescingMode.parse(config.getString(MvsinkConfig.COALESCING_MODE)),
            Duration.ofMillis(config.getLong(MvsinkConfig.BARRIER_TIMEOUT_MS)),
            Duration.ofMillis(config.getLong(MvsinkConfig.BEST_EFFORT_LINGER_MS)),
            config.getLong(MvsinkConfig.BUILDER_MAX_QUEUED_BYTES), config.getInt(MvsinkConfig.BUILDER_THREADS));
    }

    /** What the app's options tell a shard's processors, on a corrections topic of {@code partitions}. */
    public static SinkSettings sinkSettings(MvsinkConfig config, int partitions) {
        return new SinkSettings(config.shard(), config.rowSubject(), config.batchIntervalMs(), partitions,
            Duration.ofMillis(config.getLong(MvsinkConfig.PUNCTUATE_INTERVAL_MS)),
            Duration.ofMillis(config.getLong(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS)),
            config.getInt(MvsinkConfig.MAX_ROW_BYTES), SinkSettings.DEFAULT_RECORD_BYTES);
    }

    /** The part encoder of the app's options (codec, target part size). */
    public static PartEncoder encoder(MvsinkConfig config) {
        return new PartEncoder(config.getString(MvsinkConfig.BLOB_CODEC), config.getLong(MvsinkConfig.BLOB_TARGET_BYTES));
    }

    /** The real dependencies of one app: registry client, Azure blob store, batch coalescer, fresh metrics, system time. */
    public static MvsinkApp.Dependencies dependencies(MvsinkConfig config) {
        LaunchLog.step("configured");
        // built meanwhile: the app's start prepares its Kafka topics while the Azure SDK loads and
        // checks the container, and waits for it before anything reads or writes blobs (MvsinkApp.start)
        BlobStore blobs = StartingBlobStore.start(() -> {
            BlobStore store = blobs(config);
            LaunchLog.step("blob store ready");
            return store;
        });
        SchemaRegistry registry = registry(config);
        return new MvsinkApp.Dependencies(registry, blobs, batches(config, blobs, registry, Time.SYSTEM),
            new ShardMetrics(config.shard()), Time.SYSTEM);
    }
}
