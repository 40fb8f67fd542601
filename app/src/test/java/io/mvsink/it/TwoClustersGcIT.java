package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.BrokerProcess;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same app (application id, corrections topic, hence consensus topic and blob prefix) on two
 * Kafka clusters sharing one storage container, both with the blob GC on: staging and production,
 * two regions, a DR pair (issue 21 item 2). Each GC must leave the other cluster's parts alone, so
 * both shards still read exactly once each GC has run twice after the grace of every part passed,
 * and each GC still collects its own garbage. {@link SharedContainerGcIT} is the same with two
 * application ids on one cluster.
 */
@ExtendWith(LocalStackExtension.class)
class TwoClustersGcIT {
    @Test
    void shouldNotDeleteTheOtherClustersPartsWhenTheSameAppOnTwoClustersSharesAContainer(LocalStack shared)
            throws Exception {
        try (BrokerProcess otherBroker = BrokerProcess.start();
             SinkHarness east = new SinkHarness(shared, 4, overrides());
             SinkHarness west = new SinkHarness(east, otherBroker.over(shared), overrides());
             CorrectionProducer eastProducer = east.producer();
             CorrectionProducer westProducer = west.producer()) {
            assertEquals(east.config(0).applicationId(), west.config(0).applicationId(), "one application id");
            assertEquals(east.config(0).blobPrefix(), west.config(0).blobPrefix(), "one prefix for both");
            assertNotEquals(east.config(0).kafkaClientProps(), west.config(0).kafkaClientProps(), "two clusters");
            MvsinkApp eastApp = east.startApp(2);
            MvsinkApp westApp = west.startApp(2);
            WorkloadRunner eastRunner = new WorkloadRunner(eastProducer, new Workload(21, 300, 0.35), Time.SYSTEM);
            WorkloadRunner westRunner = new WorkloadRunner(westProducer, new Workload(22, 300, 0.35), Time.SYSTEM);
            assertTrue(eastRunner.run(2000, 3_000, 4_000, 100, n -> { }) > 1000, "the east workload ran");
            assertTrue(westRunner.run(2000, 3_000, 4_000, 100, n -> { }) > 1000, "the west workload ran");
            long eastUpper = eastRunner.sealThrough(500);
            long westUpper = westRunner.sealThrough(500);
            east.awaitUpper(eastUpper);
            west.awaitUpper(westUpper);
            String prefix = east.config(0).blobPrefix();
            String eastLeaked = GcIT.leak(east.blobs, prefix, east.blobOwner().value(), 1).get(0);
            String westLeaked = GcIT.leak(west.blobs, prefix, west.blobOwner().value(), 1).get(0);

            SharedContainerGcIT.awaitTwoGcRunsPastTheGrace(eastApp, westApp);

            assertEquals(0, eastApp.metrics().gcFailures(), "east gc failures");
            assertEquals(0, westApp.metrics().gcFailures(), "west gc failures");
            east.assertSealedExactly(eastUpper);
            west.assertSealedExactly(westUpper);
            assertFalse(SharedContainerGcIT.exists(east, eastLeaked) || SharedContainerGcIT.exists(west, westLeaked),
                "each gc collected its own garbage");
        }
    }

    private static Properties overrides() {
        Properties props = SharedContainerGcIT.overrides();
        props.put(MvsinkConfig.INLINE_MAX_BYTES, "0");
        return props;
    }
}
