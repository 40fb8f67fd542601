package io.mvsink.cli;

import io.mvsink.Wiring;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.console.ProgressLine;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "produce", description = "Writes a synthetic workload of inserts and retractions with progress "
    + "records to every partition of the corrections topic.")
final class ProduceCommand implements Callable<Integer> {
    @Mixin
    Settings settings;

    @Option(names = "--rate", defaultValue = "1000", description = "Updates per second (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration-s", defaultValue = "30", description = "Seconds to run (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--count", defaultValue = "9223372036854775807", description = "Stop after this many updates.")
    long count;

    @Option(names = "--progress-ms", defaultValue = "200", description = "Progress every N ms (default ${DEFAULT-VALUE}).")
    long progressMs;

    @Option(names = "--keys", defaultValue = "10000", description = "Distinct row ids (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--retract-share", defaultValue = "0.3", description = "Share of retractions (default ${DEFAULT-VALUE}).")
    double retractShare;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() {
        MvsinkConfig config = settings.config();
        requireWorkloadRecord(config);
        Map<String, Object> props = config.kafkaClientProps();
        try (CorrectionProducer producer = new CorrectionProducer(props, config.correctionsTopic(), config.rowSubject(),
                Wiring.registry(config))) {
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(seed, keys, retractShare), Time.SYSTEM);
            ProgressLine progress = ProgressLine.onStderr();
            long sent = runner.run(rate, durationSeconds * 1000, count, progressMs,
                n -> progress.update("produce: " + n + " updates sent"));
            long upper = runner.sealThrough(config.batchIntervalMs());
            progress.finish("produce: " + sent + " updates sent to " + producer.partitions()
                + " partitions; final progress " + upper);
        }
        return 0;
    }

    /**
     * A producer whose strategy names the subject after the record registers the workload's rows
     * under their own full name: one the shard reads only if it is {@code row.record.name}.
     */
    private static void requireWorkloadRecord(MvsinkConfig config) {
        String record = config.getString(MvsinkConfig.ROW_RECORD_NAME);
        String workload = Workload.ROW_SCHEMA.getFullName();
        if (config.subjectNameStrategy().needsRecordName() && !record.equals(workload)) {
            throw new ConfigException(MvsinkConfig.ROW_RECORD_NAME, record, "produce writes " + workload
                + " rows, which a producer with " + MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY + "="
                + config.subjectNameStrategy().className() + " registers under "
                + config.subjectNameStrategy().subject(config.correctionsTopic(), workload) + ", not under the "
                + "shard's subject " + config.rowSubject());
        }
    }
}
