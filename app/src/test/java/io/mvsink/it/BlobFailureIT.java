package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.blob.BlobStore;
import io.mvsink.blob.BlobWriteFailedException;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Blob writes fail inside shared builders: nothing seals without the data; after recovery it does. */
@ExtendWith(LocalStackExtension.class)
class BlobFailureIT {

    @Test
    void shouldNotSealWithoutTheDataWhileBlobWritesFailAndSealItAfterRecovery(LocalStack stack) throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        AtomicLong refused = new AtomicLong();
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, "barrier");
        // these batches are small enough to go inline, which writes no blob: the test is about blob writes
        props.put(MvsinkConfig.INLINE_MAX_BYTES, "0");
        try (SinkHarness sink = new SinkHarness(stack, 4, props, real -> new FailingBlobStore(real, failing, refused));
             CorrectionProducer producer = sink.producer()) {
            MvsinkApp app = sink.startApp(4);
            Workload workload = new Workload(51, 100, 0.3);
            long t0 = 2_000_000;
            send(producer, workload, t0, 200);
            producer.progress(t0 + 1_000);
            producer.flush();
            sink.awaitUpper(t0 + 1_000);

            failing.set(true);
            send(producer, workload, t0 + 1_000, 200);
            producer.progress(t0 + 3_000);
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> refused.get() > 3 && app.metrics().batchesFailed() > 0);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> sink.state().upper() == t0 + 1_000);

            failing.set(false);
            sink.assertSealedExactly(t0 + 3_000);
            assertTrue(app.metrics().recontributions() > 0, "the failed contributions were made again");
        }
    }

    private static void send(CorrectionProducer producer, Workload workload, long from, int count) {
        for (int i = 0; i < count; i++) {
            Workload.Correction c = workload.next();
            producer.update(c.key(), c.row(), from + i * 5L, c.diff());
        }
    }

    /** Refuses every write while {@code failing} is set; otherwise the real store. */
    private static final class FailingBlobStore extends ForwardingBlobStore {
        private final AtomicBoolean failing;
        private final AtomicLong refused;

        FailingBlobStore(BlobStore real, AtomicBoolean failing, AtomicLong refused) {
            super(real);
            this.failing = failing;
            this.refused = refused;
        }

        @Override
        public void putIfAbsent(String key, byte[] data, String owner) {
            if (failing.get()) {
                refused.incrementAndGet();
                throw new BlobWriteFailedException("injected failure writing " + key);
            }
            super.putIfAbsent(key, data, owner);
        }
    }
}
