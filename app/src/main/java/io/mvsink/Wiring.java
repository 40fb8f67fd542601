package io.mvsink;

import io.mvsink.blob.AzureBlobStore;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.BlobStoreSettings;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.registry.RegistryClient;
import io.mvsink.registry.RegistrySettings;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import org.apache.kafka.common.utils.Time;

/** Builds the real collaborators of an app from its configuration. */
public final class Wiring {
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

    public static AzureBlobStore blobs(MvsinkConfig config) {
        BlobStoreSettings settings = BlobStoreSettings.fromConnectionString(
                config.blobConnectionString().value(), config.getString(MvsinkConfig.BLOB_CONTAINER))
            .withRetries(config.getInt(MvsinkConfig.BLOB_MAX_ATTEMPTS), BlobStoreSettings.DEFAULT_INITIAL_BACKOFF,
                BlobStoreSettings.DEFAULT_MAX_BACKOFF);
        AzureBlobStore store = new AzureBlobStore(settings);
        store.ensureContainer();
        return store;
    }

    /** The real dependencies of one app: registry client, Azure blob store, fresh metrics, system time. */
    public static MvsinkApp.Dependencies dependencies(MvsinkConfig config) {
        BlobStore blobs = blobs(config);
        return new MvsinkApp.Dependencies(registry(config), blobs, new ShardMetrics(config.shard()), Time.SYSTEM);
    }
}
