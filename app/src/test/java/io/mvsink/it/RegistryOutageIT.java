package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.faults.FaultProxy;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.registry.RegistryClient;
import io.mvsink.registry.RegistrySettings;
import io.mvsink.registry.RegistryUnavailableException;
import io.mvsink.registry.SchemaRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The schema registry, reached through a proxy that can be taken down: unreachable at start
 * (the app waits for it, or gives up with a message that says what to fix) and for a while
 * mid-run, while rows with a writer schema the app has never seen arrive (nothing is lost:
 * the app waits, then seals them).
 */
@ExtendWith(LocalStackExtension.class)
class RegistryOutageIT {
    private static final Schema V2 = SchemaBuilder.record("Row").namespace("io.mvsink.demo").fields()
        .requiredLong("id").requiredString("category").requiredLong("amount")
        .name("channel").type().stringType().stringDefault("web").endRecord();

    @Test
    void shouldGiveUpAtStartWithAMessageThatSaysWhatToFix(LocalStack stack) throws Exception {
        try (FaultProxy proxy = registryProxy(stack);
             SinkHarness sink = new SinkHarness(stack, 2, viaProxy(stack, proxy, "2000"))) {
            proxy.down(true);
            RegistryUnavailableException e = assertThrows(RegistryUnavailableException.class, () -> sink.startApp(1));
            assertTrue(e.getMessage().contains("did not answer within 2000 ms"), e.getMessage());
            assertTrue(e.getMessage().contains("schema.registry.url"), e.getMessage());
            assertTrue(e.getMessage().contains(":" + proxy.port() + "/"), "names the URL: " + e.getMessage());
        }
    }

    @Test
    void shouldWaitAtStartForARegistryThatComesUp(LocalStack stack) throws Exception {
        try (FaultProxy proxy = registryProxy(stack);
             SinkHarness sink = new SinkHarness(stack, 2, viaProxy(stack, proxy, "60000"));
             CorrectionProducer producer = sink.producer()) {
            proxy.down(true);
            CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS).execute(() -> proxy.down(false));
            long began = System.nanoTime();
            sink.startApp(1);
            assertTrue(System.nanoTime() - began >= Duration.ofSeconds(3).toNanos(), "it waited");
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(51, 100, 0.3), Time.SYSTEM);
            runner.run(300, 1_000, 300, 100, n -> { });
            sink.assertSealedExactly(runner.sealThrough(500));
        }
    }

    @Test
    void shouldLoseNothingWhileTheRegistryIsDownMidRun(LocalStack stack) throws Exception {
        SchemaRegistry direct = new RegistryClient(RegistrySettings.of(stack.registryUrl()));
        try (FaultProxy proxy = registryProxy(stack);
             SinkHarness sink = new SinkHarness(stack, 4, viaProxy(stack, proxy, "60000"));
             CorrectionProducer producer = new CorrectionProducer(sink.clientProps(), sink.correctionsTopic(), sink.rowSubject, direct)) {
            MvsinkApp app = sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(52, 200, 0.3), Time.SYSTEM);
            runner.run(300, 2_000, 600, 100, n -> { });
            long before = sink.awaitUpper(runner.sealThrough(500)).upper();

            proxy.down(true);
            // rows of a new (compatible) writer schema: the app must fetch it, and cannot
            Workload workload = new Workload(53, 200, 0.3);
            long t = before + 10;
            for (int i = 0; i < 400; i++) {
                Workload.Correction c = workload.next();
                producer.update(c.key(), i % 2 == 0 ? withChannel(c.row(), i) : c.row(), t + i, c.diff());
            }
            long upper = (t + 400) / 500 * 500 + 500;
            producer.progress(upper);
            producer.flush();
            await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(10))
                .until(() -> sink.state().upper() < upper && app.state() != KafkaStreams.State.ERROR
                    && app.state() != KafkaStreams.State.NOT_RUNNING);

            proxy.down(false);
            sink.assertSealedExactly(upper);
            assertEquals(KafkaStreams.State.RUNNING, app.state(), "the same app, its stream threads replaced");
        }
    }

    private static GenericRecord withChannel(GenericRecord v1, int i) {
        GenericRecord row = new GenericData.Record(V2);
        for (Schema.Field field : v1.getSchema().getFields()) {
            row.put(field.name(), v1.get(field.name()));
        }
        row.put("channel", i % 4 == 0 ? "app" : "store");
        return row;
    }

    private static FaultProxy registryProxy(LocalStack stack) {
        URI registry = URI.create(stack.registryUrl());
        return new FaultProxy(registry.getHost(), registry.getPort(), 0);
    }

    private static Properties viaProxy(LocalStack stack, FaultProxy proxy, String startupTimeoutMs) {
        URI registry = URI.create(stack.registryUrl());
        Properties props = new Properties();
        props.put(MvsinkConfig.REGISTRY_URL, "http://127.0.0.1:" + proxy.port() + registry.getPath());
        props.put(MvsinkConfig.REGISTRY_STARTUP_TIMEOUT_MS, startupTimeoutMs);
        return props;
    }
}
