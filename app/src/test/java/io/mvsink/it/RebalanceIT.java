package io.mvsink.it;


import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A second instance joins mid-stream, then leaves, while intervals are open. */
@ExtendWith(LocalStackExtension.class)
class RebalanceIT {

    @Test
    void shouldSealExactlyWhileASecondInstanceJoinsAndLeaves(LocalStack stack) throws Exception {
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, "barrier");
        try (SinkHarness sink = new SinkHarness(stack, 8, props);
             CorrectionProducer producer = sink.producer()) {
            sink.startApp(4);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(41, 400, 0.3), Time.SYSTEM);
            runner.run(1500, 4_000, 6_000, 100, n -> { });
            MvsinkApp second = sink.startApp(4);
            runner.run(1500, 5_000, 7_500, 100, n -> { });
            second.close(Duration.ofSeconds(30));
            runner.run(1500, 4_000, 6_000, 100, n -> { });
            sink.assertSealedExactly(runner.sealThrough(500));
        }
    }
}
