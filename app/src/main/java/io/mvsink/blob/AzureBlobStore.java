package io.mvsink.blob;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link BlobStore} on one Azure Blob Storage container, over the SDK's sync API and the JDK HTTP
 * client. The SDK's own retries are off: {@link RetryLoop} makes every retry, so that it can tell
 * "certainly not written" from "maybe written", and every request is counted; its errors name the
 * container by its URL. Thread-safe.
 */
public final class AzureBlobStore implements BlobStore {
    private static final String ETAG_ANY = "*";

    private final BlobContainerClient container;
    private final Duration timeout;
    private final RetryLoop retries;
    private final WriteCountingPolicy counter;
    private final BlobRequests requests = new SdkRequests();

    /** A store for the container in {@code settings}; call {@link #ensureContainer()} before first use. */
    public AzureBlobStore(BlobStoreSettings settings) {
        this(settings, Sleeper.REAL);
    }

    AzureBlobStore(BlobStoreSettings settings, Sleeper sleeper) {
        this(settings, sleeper, java.net.http.HttpClient.newBuilder());
    }

    /** With {@code jdk} as the base of the HTTP client: tests give it an SSL context that trusts their own CA. */
    AzureBlobStore(BlobStoreSettings settings, Sleeper sleeper, java.net.http.HttpClient.Builder jdk) {
        this.timeout = settings.requestTimeout();
        this.counter = new WriteCountingPolicy();
        HttpClient http = new JdkHttpClientBuilder(jdk)
                .connectionTimeout(timeout)
                .responseTimeout(timeout)
                .build();
        BlobContainerClientBuilder builder = new BlobContainerClientBuilder()
                .containerName(settings.container())
                .httpClient(http)
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1,
                        (int) Math.max(1, timeout.toSeconds()), null, null, null))
                .addPolicy(counter);
        settings.connectionString().ifPresent(builder::connectionString);
        settings.endpoint().ifPresent(builder::endpoint);
        settings.sasToken().ifPresent(builder::sasToken);
        settings.credential().ifPresent(builder::credential);
        this.container = builder.buildClient();
        this.retries = new RetryLoop(url(container), settings.maxAttempts(),
                new Backoff(settings.initialBackoff(), settings.maxBackoff()), sleeper);
    }

    /** The container's URL without its query (a SAS token given in the endpoint stays out of messages). */
    private static String url(BlobContainerClient container) {
        String url = container.getBlobContainerUrl();
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }

    /** Creates the container if it does not exist yet (counted as a write request). */
    public void ensureContainer() {
        retries.idempotent("create container", () -> container.createIfNotExistsWithResponse(null, timeout, Context.NONE));
    }

    @Override
    public void putIfAbsent(String key, byte[] data, String owner) {
        retries.putIfAbsent(requests, key, data, owner);
    }

    @Override
    public byte[] get(String key) {
        return retries.idempotent("get of " + key, () -> requests.download(key))
                .orElseThrow(() -> new BlobNotFoundException("no blob at " + container.getBlobContainerName() + "/" + key));
    }

    @Override
    public boolean delete(String key) {
        return retries.idempotent("delete of " + key, () -> container.getBlobClient(key)
                .deleteIfExistsWithResponse(null, null, timeout, Context.NONE).getValue());
    }

    @Override
    public List<BlobInfo> list(String prefix) {
        return retries.idempotent("list of prefix " + prefix, () -> container
                .listBlobs(new ListBlobsOptions().setPrefix(prefix)
                        .setDetails(new BlobListDetails().setRetrieveMetadata(true)), timeout).stream()
                .map(AzureBlobStore::info)
                .sorted(Comparator.comparing(BlobInfo::key))
                .toList());
    }

    private static BlobInfo info(BlobItem item) {
        Map<String, String> metadata = item.getMetadata();
        return new BlobInfo(item.getName(), item.getProperties().getContentLength(),
                item.getProperties().getLastModified().toInstant(),
                metadata == null ? null : metadata.get(OWNER_METADATA));
    }

    @Override
    public long writeRequests() {
        return counter.requests();
    }

    @Override
    public long bytesWritten() {
        return counter.bytes();
    }

    /** Nothing to release: the JDK HTTP client's threads end with the client's last reference. */
    @Override
    public void close() {
    }

    @Override
    public String location() {
        return container.getAccountName() + "/" + container.getBlobContainerName();
    }

    @Override
    public String toString() {
        return "AzureBlobStore[" + container.getBlobContainerUrl() + "]";
    }

    /** The single requests {@link RetryLoop} drives. */
    private final class SdkRequests implements BlobRequests {
        @Override
        public void uploadIfNoneMatch(String key, byte[] data, String owner) {
            container.getBlobClient(key).getBlockBlobClient().uploadWithResponse(
                    new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(data))
                            .setMetadata(owner == null ? null : Map.of(OWNER_METADATA, owner))
                            .setRequestConditions(new BlobRequestConditions().setIfNoneMatch(ETAG_ANY)),
                    timeout, Context.NONE);
        }

        @Override
        public Optional<byte[]> download(String key) {
            try {
                return Optional.of(container.getBlobClient(key)
                        .downloadContentWithResponse(null, null, timeout, Context.NONE).getValue().toBytes());
            } catch (BlobStorageException e) {
                if (e.getStatusCode() == 404) {
                    return Optional.empty();
                }
                throw e;
            }
        }
    }
}
