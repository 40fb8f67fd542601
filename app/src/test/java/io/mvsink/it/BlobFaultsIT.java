package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.blob.AzureBlobStore;
import io.mvsink.blob.BlobException;
import io.mvsink.blob.BlobInfo;
import io.mvsink.blob.BlobMaybeWrittenException;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.BlobStoreSettings;
import io.mvsink.blob.BlobWriteFailedException;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.faults.FaultProxy;
import io.mvsink.faults.FaultProxy.Exchange;
import io.mvsink.faults.FaultProxy.Fault;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blob writes fail on the wire: a {@link FaultProxy} in front of Azurite answers a share of the
 * part writes with 500 or 503, holds some until they time out, and resets the connection of some
 * after Azurite did the write. Nothing is lost or duplicated, and a write that may have happened is
 * never reported as certainly failed: a write whose answer was lost finds its own bytes on retry.
 * {@code -Dmvsink.faults.seed=N} repeats a run's fault choices (the seed is printed).
 */
@ExtendWith(LocalStackExtension.class)
class BlobFaultsIT {
    private static final String CONTAINER = "mvsink-it";

    @Test
    void shouldSealExactlyAndNeverCallAWriteThatMayHaveHappenedFailed(LocalStack stack) throws Exception {
        long seed = Long.getLong("mvsink.faults.seed", System.nanoTime());
        System.out.println("BlobFaultsIT seed " + seed + " (-Dmvsink.faults.seed=" + seed + " repeats it)");
        long began = System.nanoTime();
        URI azurite = blobEndpoint(stack.blobConnectionString());
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, "barrier");
        props.put(MvsinkConfig.BLOB_TARGET_BYTES, "1024");
        try (FaultProxy proxy = new FaultProxy(azurite.getHost(), azurite.getPort(), seed)
                 .fail(Fault.ERROR_500, 0.06).fail(Fault.ERROR_503, 0.06)
                 .fail(Fault.TIMEOUT, 0.05).fail(Fault.RESET_AFTER_FORWARD, 0.08);
             RecordingBlobStore writes = new RecordingBlobStore(throughProxy(stack.blobConnectionString(), proxy));
             SinkHarness sink = new SinkHarness(stack, 4, props, direct -> writes);
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(seed, 300, 0.35), Time.SYSTEM);
            String keyPath = keyPath(azurite);
            long sent = runner.run(400, 15_000, 6_000, 100, n -> { });
            while (!enoughFaults(proxy, keyPath) && sent < 14_000) {
                sent += runner.run(400, 5_000, 2_000, 100, n -> { });
            }
            sink.assertSealedExactly(runner.sealThrough(500));

            // Compactions keep writing after the last seal: a write whose answer was reset may still be
            // retrying, so each one is judged only once its putIfAbsent has returned or thrown.
            List<String> landedUnseen = landedUnseen(proxy.exchanges(), keyPath);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> landedUnseen.stream().allMatch(writes::finished));
            Set<String> stored = sink.blobs.list(sink.correctionsTopic() + "/").stream()
                .map(BlobInfo::key).collect(Collectors.toSet());
            List<Exchange> exchanges = proxy.exchanges();
            Set<String> foundTaken = exchanges.stream()
                .filter(e -> e.fault() == null && e.status() == 409)
                .flatMap(e -> blobKey(e, keyPath).stream()).collect(Collectors.toSet());
            long confirmed = landedUnseen.stream().filter(writes.written::contains).count();
            System.out.println("BlobFaultsIT " + proxy.summary() + "; part writes ok=" + writes.written.size()
                + ", failed=" + writes.failures.values().stream().collect(Collectors.groupingBy(
                    e -> e.getClass().getSimpleName(), Collectors.counting())) + ", landed but reset=" + landedUnseen.size()
                + " (confirmed on retry by 409 and same bytes: " + confirmed + "), batches failed="
                + app.metrics().batchesFailed() + ", recontributions=" + app.metrics().recontributions()
                + ", mismatches=" + app.metrics().mismatches() + " (redundant " + app.metrics().redundantBatches()
                + "), updates=" + sent + ", appends=" + app.metrics().appends()
                + ", run " + Duration.ofNanos(System.nanoTime() - began).toSeconds() + " s");
            writes.failures.forEach((key, e) -> System.out.println("BlobFaultsIT " + key + " failed (" + e
                + "); its requests (fault, status): " + exchanges.stream().filter(x -> blobKey(x, keyPath)
                .equals(Optional.of(key))).map(x -> x.fault() + " " + x.status()).toList()));

            for (Fault fault : Fault.values()) {
                assertTrue(proxy.injected(fault) >= 3, fault + " injected a few times: " + proxy.summary());
            }
            // Every fault here leaves the write possible (or done): none may be reported as certainly not written.
            writes.failures.forEach((key, e) -> assertInstanceOf(BlobMaybeWrittenException.class, e, key));
            assertTrue(landedUnseen.size() >= 3, "writes that landed before their connection was reset: " + landedUnseen);
            for (String key : landedUnseen) {
                assertTrue(stored.contains(key), key + " was written");
                if (writes.written.contains(key)) {
                    assertTrue(foundTaken.contains(key), key + ": success came from a retry that found the key taken");
                } else {
                    assertInstanceOf(BlobMaybeWrittenException.class, writes.failures.get(key), key);
                }
            }
            assertTrue(confirmed >= 3, "reset writes confirmed on retry: " + confirmed);
            // After a failed batch its participants contribute again from its lower, and a participant that
            // had already handed its next range to a batch that is then written hands that range in again
            // too: those copies lose to that batch, each a mismatch whose every range another batch sealed.
            // No other kind may occur here (one instance, nobody leaves).
            assertEquals(app.metrics().mismatches(), app.metrics().redundantBatches(),
                "every compare-and-append mismatch is a redundant copy (mismatches, redundant)");
            if (app.metrics().batchesFailed() == 0 && app.metrics().recontributions() == 0) {
                assertEquals(0, app.metrics().mismatches(), "no compare-and-append mismatch without contributing again");
            }
        }
    }

    @Test
    void shouldCallAWriteMaybeWrittenUnlessItsRequestNeverLeft(LocalStack stack) {
        String connectionString = stack.blobConnectionString();
        URI azurite = blobEndpoint(connectionString);
        String prefix = "blob-faults-" + UUID.randomUUID() + "/";
        byte[] data = prefix.getBytes(StandardCharsets.UTF_8);
        AzureBlobStore direct = new AzureBlobStore(BlobStoreSettings.fromConnectionString(connectionString, CONTAINER));
        direct.ensureContainer();
        try (FaultProxy proxy = new FaultProxy(azurite.getHost(), azurite.getPort(), 0)) {
            for (Fault fault : Fault.values()) {
                proxy.fail(fault, 1.0);
                String key = prefix + fault;
                BlobException e = assertThrows(BlobException.class,
                    () -> throughProxy(connectionString, proxy, 1).putIfAbsent(key, data, null));
                System.out.println("BlobFaultsIT one attempt, " + fault + ": " + causes(e));
                assertInstanceOf(BlobMaybeWrittenException.class, e, fault + ": " + causes(e));
                assertEquals(fault == Fault.RESET_AFTER_FORWARD, exists(direct, key), key + " written");
                proxy.fail(fault, 0);
            }

            proxy.down(true);
            BlobException refused = assertThrows(BlobException.class,
                () -> throughProxy(connectionString, proxy, 2).putIfAbsent(prefix + "down", data, null));
            System.out.println("BlobFaultsIT proxy down: " + causes(refused));
            assertInstanceOf(BlobWriteFailedException.class, refused, "never sent: " + causes(refused));
            proxy.down(false);

            AtomicBoolean first = new AtomicBoolean(true);
            proxy.fail(Fault.RESET_AFTER_FORWARD, 1.0).matching(r -> r.method().equals("PUT") && first.getAndSet(false));
            throughProxy(connectionString, proxy, 5).putIfAbsent(prefix + "retried", data, null);
            assertArrayEquals(data, direct.get(prefix + "retried"));
            String keyPath = keyPath(azurite);
            List<Integer> statuses = proxy.exchanges().stream()
                .filter(x -> blobKey(x, keyPath).equals(Optional.of(prefix + "retried")))
                .map(Exchange::status).toList();
            assertEquals(201, statuses.get(0), "the reset write landed: " + statuses);
            assertEquals(409, statuses.get(statuses.size() - 1), "a retry found the key taken by it: " + statuses);
        }
    }

    /** Every fault kind a few times, and a few writes that landed although their answer was reset. */
    private static boolean enoughFaults(FaultProxy proxy, String keyPath) {
        return Arrays.stream(Fault.values()).allMatch(f -> proxy.injected(f) >= 3)
            && landedUnseen(proxy.exchanges(), keyPath).size() >= 3;
    }

    /** The keys of part writes that Azurite did (201) but whose answer the proxy replaced by a reset. */
    private static List<String> landedUnseen(List<Exchange> exchanges, String keyPath) {
        return exchanges.stream()
            .filter(e -> e.fault() == Fault.RESET_AFTER_FORWARD && e.status() == 201)
            .flatMap(e -> blobKey(e, keyPath).stream()).toList();
    }

    /** The blob endpoint of an Azurite connection string. */
    private static URI blobEndpoint(String connectionString) {
        for (String part : connectionString.split(";")) {
            if (part.startsWith("BlobEndpoint=")) {
                return URI.create(part.substring("BlobEndpoint=".length()));
            }
        }
        throw new IllegalArgumentException("no BlobEndpoint in the connection string");
    }

    /** The app's blob store, reaching Azurite through {@code proxy}, with short timeouts and backoff. */
    private static AzureBlobStore throughProxy(String connectionString, FaultProxy proxy) {
        return throughProxy(connectionString, proxy, 5);
    }

    private static AzureBlobStore throughProxy(String connectionString, FaultProxy proxy, int attempts) {
        URI direct = blobEndpoint(connectionString);
        String proxied = connectionString.replace("BlobEndpoint=" + direct,
            "BlobEndpoint=http://127.0.0.1:" + proxy.port() + direct.getPath());
        return new AzureBlobStore(BlobStoreSettings.fromConnectionString(proxied, CONTAINER)
            .withRetries(attempts, Duration.ofMillis(50), Duration.ofMillis(400))
            .withRequestTimeout(Duration.ofSeconds(1)));
    }

    private static boolean exists(BlobStore store, String key) {
        return store.list(key).stream().anyMatch(b -> b.key().equals(key));
    }

    /** The exception's cause chain, one class name each. */
    private static String causes(Throwable e) {
        List<String> names = new ArrayList<>();
        for (Throwable t = e; t != null && names.size() < 8; t = t.getCause()) {
            names.add(t.getClass().getSimpleName());
        }
        return String.join(" <- ", names);
    }

    /** The request path under which the blobs of the container are. */
    private static String keyPath(URI blobEndpoint) {
        return blobEndpoint.getPath() + "/" + CONTAINER + "/";
    }

    /** The blob key a request of the proxy wrote, if it was a blob write of this container. */
    private static Optional<String> blobKey(Exchange exchange, String keyPath) {
        String path = exchange.request().target().split("\\?", 2)[0];
        if (!exchange.request().method().equals("PUT") || !path.startsWith(keyPath)) {
            return Optional.empty();
        }
        return Optional.of(URLDecoder.decode(path.substring(keyPath.length()), StandardCharsets.UTF_8));
    }

    /** Records the outcome of every part write: written, or the exception the store threw. */
    private static final class RecordingBlobStore extends ForwardingBlobStore {
        final Set<String> written = ConcurrentHashMap.newKeySet();
        final Map<String, RuntimeException> failures = new ConcurrentHashMap<>();

        RecordingBlobStore(BlobStore store) {
            super(store);
        }

        /** Whether a write of {@code key} has returned or thrown. */
        boolean finished(String key) {
            return written.contains(key) || failures.containsKey(key);
        }

        @Override
        public void putIfAbsent(String key, byte[] data, String owner) {
            try {
                super.putIfAbsent(key, data, owner);
                written.add(key);
            } catch (RuntimeException e) {
                failures.put(key, e);
                throw e;
            }
        }
    }
}
