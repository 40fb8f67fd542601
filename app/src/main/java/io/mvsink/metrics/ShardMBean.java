package io.mvsink.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;
import javax.management.ReflectionException;

/**
 * The read-only JMX view of one shard's {@link ShardMetrics}, with a description per attribute.
 * Counters are monotonic since the app started; gauges are current values; means are over the
 * counters (0 before the first event). Reading never changes anything.
 */
public final class ShardMBean implements DynamicMBean {
    private final Map<String, Metric> metrics = new LinkedHashMap<>();
    private final MBeanInfo info;

    private record Metric(String type, String description, Supplier<Object> value) {
    }

    /**
     * {@code builders} reads the batch registry's gauges, the shard's and the JVM's; each of
     * {@code deadLetterReasons} (e.g. {@code bad-magic}) gets its own counter
     * ({@code DeadLetteredBadMagic}).
     */
    public ShardMBean(ShardMetrics m, BuilderGauges builders, List<String> deadLetterReasons) {
        counter("BlobPuts", "Counter: part blobs written (blob PUT requests that succeeded)", m::partsWritten);
        counter("BlobBytes", "Counter: bytes of part blobs written", m::partBytes);
        counter("Appends", "Counter: seals: compare-and-append diffs that advanced the upper (merges count as Compactions)", m::appends);
        counter("ConsensusDiffBytes", "Counter: bytes of consensus diffs written", m::consensusBytes);
        counter("PartsAppended", "Counter: parts referenced by appends", m::partsAppended);
        counter("BatchesAppended", "Counter: batches referenced by appends", m::batchesAppended);
        mean("PartsPerAppend", "Mean: parts per append (PartsAppended / Appends)", m::partsAppended, m::appends);
        mean("BatchesPerAppend", "Mean: batches per append (BatchesAppended / Appends)", m::batchesAppended, m::appends);
        counter("AppendMismatches", "Counter: compare-and-append mismatches (append not made: consensus moved)",
            m::mismatches);
        counter("IntervalsSealed", "Counter: grid intervals sealed", m::intervalsSealed);
        gauge("SealLatencyP50Ms", "Gauge: median seal latency (interval closed at its last partition to sealed), "
            + "ms, over the last 4096 appends", () -> m.sealLatency().percentile(50));
        gauge("SealLatencyP99Ms", "Gauge: 99th percentile seal latency, ms, over the last 4096 appends",
            () -> m.sealLatency().percentile(99));
        gauge("SealLatencyMaxMs", "Gauge: highest seal latency since start, ms", () -> m.sealLatency().max());
        counter("BatchesBuilt", "Counter: shared batches built (blob parts written, ready to append)",
            m::batchesBuilt);
        counter("SharedBatchParticipants", "Counter: contributions that took part in built batches",
            m::participants);
        mean("ParticipantsPerBatch", "Mean: participants per built batch (SharedBatchParticipants / BatchesBuilt)",
            m::participants, m::batchesBuilt);
        counter("OrphanedBatches", "Counter: batches retired while a participant still waited; must stay 0",
            m::orphanedBatches);
        counter("AbandonedBatches", "Counter: batches dropped because every participant abandoned them",
            m::batchesAbandoned);
        counter("FailedBatches", "Counter: batches whose build failed (their ranges are contributed again)",
            m::batchesFailed);
        counter("Recontributions", "Counter: times a task contributed its unsealed range again", m::recontributions);
        counter("BarrierTimeouts", "Counter: barrier batches closed by barrier.timeout.ms before every task joined",
            m::barrierTimeouts);
        counter("LateUpdates", "Counter: updates below their partition's frontier, advanced to it", m::lateUpdates);
        counter("DeadLetteredRecords", "Counter: input records sent to the dead-letter topic", m::deadLetteredCount);
        for (String reason : deadLetterReasons) {
            counter(reasonAttribute(reason), "Counter: input records dead-lettered with reason " + reason,
                () -> m.deadLetteredCount(reason));
        }
        counter("Updates", "Counter: updates added to the correction buffer", m::updates);
        counter("Contributions", "Counter: closed ranges handed to the batch registry", m::contributions);
        counter("BuilderRefusals", "Counter: contributions refused because the builder queue was full",
            m::builderRefusals);
        counter("GcRuns", "Counter: blob garbage collection runs of this app (completed or stopped early)",
            m::gcRuns);
        counter("GcDeletedBlobs", "Counter: unreferenced blobs deleted by this app's blob garbage collection",
            m::gcDeletedBlobs);
        counter("GcFailures", "Counter: blob garbage collection runs that failed (retried at the next interval)",
            m::gcFailures);
        gauge("CorrectionBufferEntries", "Gauge: approximate correction buffer entries, summed over this JVM's "
            + "tasks of the shard (as of each task's last punctuation)", m::correctionBufferEntries);
        gauge("BuilderQueuedBytes", "Gauge: this shard's contribution bytes waiting for a builder thread",
            builders.shardQueuedBytes());
        gauge("BuilderLiveBatches", "Gauge: this shard's batches open, building or awaiting their owner",
            builders.shardLiveBatches());
        gauge("JvmBuilderQueuedBytes", "Gauge: contribution bytes waiting for a builder thread, of every shard of "
            + "this JVM (the JVM-wide batch registry's bound applies to this)", builders.jvmQueuedBytes());
        gauge("JvmBuilderLiveBatches", "Gauge: batches open, building or awaiting their owner, of every shard of "
            + "this JVM", builders.jvmLiveBatches());
        counter("Compactions", "Counter: merges committed (compaction appends: the upper stays, batches are "
            + "replaced)", m::compactions);
        counter("BatchesCompacted", "Counter: batches replaced by merges", m::batchesCompacted);
        counter("CompactionConflicts", "Counter: finished merges not committed (their batches changed meanwhile, "
            + "or they finished too late); their parts are garbage", m::compactionConflicts);
        counter("CompactionFailures", "Counter: merges that failed (retried later)", m::compactionFailures);
        counter("Rollups", "Counter: rollup records written (each tombstones the diffs it covers)", m::rollups);
        counter("RollupsSkipped", "Counter: rollups not written because they would exceed the record size limit",
            m::rollupsSkipped);
        gauge("LiveBatches", "Gauge: the shard's live batches after the last append of its appender in this JVM "
            + "(0 where the appender does not run)", m::liveBatches);
        gauge("SealedUpper", "Gauge: the shard's sealed upper as this JVM's tasks last saw it (-1 before they "
            + "saw one)", () -> m.sealProgress().sealedUpper());
        gauge("SealLagMs", "Gauge: wall clock minus the sealed upper, ms, for times that are wall-clock times "
            + "(-1 before a sealed upper is seen)", () -> {
                long sealed = m.sealProgress().sealedUpper();
                return sealed < 0 ? -1 : System.currentTimeMillis() - sealed;
            });
        gauge("FrontierLagMs", "Gauge: the smallest closed frontier of this JVM's tasks minus the sealed upper, "
            + "ms: closed input waiting to be sealed (-1 while unknown)", () -> {
                long sealed = m.sealProgress().sealedUpper();
                var closed = m.sealProgress().minClosed();
                return sealed < 0 || closed.isEmpty() ? -1 : Math.max(0, closed.getAsLong() - sealed);
            });
        MBeanAttributeInfo[] attributes = metrics.entrySet().stream()
            .map(e -> new MBeanAttributeInfo(e.getKey(), e.getValue().type(), e.getValue().description(),
                true, false, false))
            .toArray(MBeanAttributeInfo[]::new);
        this.info = new MBeanInfo(ShardMBean.class.getName(), "mvsink metrics of shard " + m.shard(), attributes,
            null, new MBeanOperationInfo[0], new MBeanNotificationInfo[0]);
    }

    /** One metric as a monitoring system reads it. */
    public record Reading(String name, Kind kind, String description, Object value) {
    }

    /** How a metric behaves: a counter only grows; a gauge (and a mean) goes either way. */
    public enum Kind { COUNTER, GAUGE }

    /** Every metric now, in declaration order. */
    public List<Reading> readings() {
        List<Reading> out = new ArrayList<>(metrics.size());
        metrics.forEach((name, metric) -> out.add(new Reading(name,
            metric.description().startsWith("Counter:") ? Kind.COUNTER : Kind.GAUGE, metric.description(),
            metric.value().get())));
        return out;
    }

    /** The attribute of a dead-letter reason: {@code bad-magic} is {@code DeadLetteredBadMagic}. */
    public static String reasonAttribute(String reason) {
        StringBuilder name = new StringBuilder("DeadLettered");
        for (String word : reason.split("-")) {
            if (!word.isEmpty()) {
                name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
            }
        }
        return name.toString();
    }

    private void counter(String name, String description, LongSupplier value) {
        metrics.put(name, new Metric("long", description, value::getAsLong));
    }

    private void gauge(String name, String description, LongSupplier value) {
        metrics.put(name, new Metric("long", description, value::getAsLong));
    }

    private void mean(String name, String description, LongSupplier total, LongSupplier count) {
        metrics.put(name, new Metric("double", description, () -> {
            long n = count.getAsLong();
            return n == 0 ? 0.0 : (double) total.getAsLong() / n;
        }));
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Metric metric = metrics.get(attribute);
        if (metric == null) {
            throw new AttributeNotFoundException("no mvsink shard metric " + attribute);
        }
        return metric.value().get();
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String name : attributes) {
            Metric metric = metrics.get(name);
            if (metric != null) {
                list.add(new Attribute(name, metric.value().get()));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("mvsink shard metrics are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName), "mvsink shard metrics have no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
