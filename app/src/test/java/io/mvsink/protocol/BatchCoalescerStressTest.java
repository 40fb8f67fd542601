package io.mvsink.protocol;

import io.mvsink.batch.ContributionData;
import io.mvsink.batch.ShardSink;
import io.mvsink.batch.TestUpdates;
import io.mvsink.batch.Update;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.mvsink.avro.Batch;
import io.mvsink.avro.Contribution;
import io.mvsink.avro.Part;
import io.mvsink.blob.BlobMaybeWrittenException;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.blob.BlobWriteFailedException;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.metrics.ShardMetrics;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import io.mvsink.time.TimeRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.common.utils.MockTime;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The coalescer alone under concurrency: task threads contribute, poll, abandon, deregister and
 * register in random orders on three shards, while the pool builds on a blob store that fails a
 * share of its writes, a clock thread moves the mock time and ticks, and a reader thread reads
 * every gauge. Every handle's answer is recorded and checked at the end (102,000 lifecycles over the three modes) against invariant 2 (each
 * finished batch reported by exactly one participant, or dropped because all abandoned it) and
 * against the parts' data (each contribution in at most one reported batch, none lost).
 * Reproduce a run's choices with {@code -Dmvsink.stress.seed=<seed>} (thread timing still varies).
 */
class BatchCoalescerStressTest {
    private static final int SHARDS = 3;
    private static final int TASK_THREADS = 8;
    private static final int POOL_THREADS = 3;
    private static final int MAX_IN_FLIGHT = 6;
    private static final long INTERVAL = 1000;
    private static final long BARRIER_TIMEOUT_MS = 200;
    private static final long MAX_QUEUED_BYTES = 1_500;
    private static final long PART_TARGET_BYTES = 60;
    private static final int FAIL_PERCENT = 2;
    private static final int MAYBE_WRITTEN_PERCENT = 1;

    /** One contribution's life: what was contributed and how its handle was resolved. */
    private static final class Life {
        final ContributionData contribution;
        final Handle handle;
        final long[] rowIds;
        Outcome outcome;
        boolean abandoned;

        Life(ContributionData contribution, Handle handle, long[] rowIds) {
            this.contribution = contribution;
            this.handle = handle;
            this.rowIds = rowIds;
        }

        boolean resolved() {
            return abandoned || outcome != null;
        }
    }

    /** One local task (a shard's partition) as a task thread drives it. */
    private static final class Task {
        final String shard;
        final int partition;
        final List<Life> inFlight = new ArrayList<>();
        boolean registered;
        long nextLower;

        Task(String shard, int partition) {
            this.shard = shard;
            this.partition = partition;
        }
    }

    private final MockTime time = new MockTime(0, 0, 0);
    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final int schemaId = schemas.register("rows-value", Workload.ROW_SCHEMA);
    private final InMemoryBlobStore stored = new InMemoryBlobStore();
    private final Map<String, ShardMetrics> metrics = new HashMap<>();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<List<Life>> allLives = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> refusals = new HashMap<>();
    private final AtomicInteger lifecycles = new AtomicInteger();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong gaugeReads = new AtomicLong();
    private BatchCoalescer coalescer;

    @ParameterizedTest(name = "{0}, {1} lifecycles")
    @CsvSource({"BARRIER, 75000", "BEST_EFFORT, 17000", "NONE, 10000"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldNeverOrphanLoseOrDoubleAContributionUnderConcurrency(CoalescingMode mode, int target) throws Exception {
        long seed = Long.getLong("mvsink.stress.seed", System.nanoTime());
        try {
            run(mode, target, seed);
        } catch (Throwable e) {
            throw new AssertionError("stress run of " + mode + " failed with seed " + seed
                + " (rerun with -Dmvsink.stress.seed=" + seed + "): " + e.getMessage(), e);
        }
    }

    private void run(CoalescingMode mode, int target, long seed) throws Exception {
        long started = System.nanoTime();
        coalescer = TestCoalescer.of(mode).blobs(new FailingBlobStore(new Random(seed ^ 0x9E3779B97F4A7C15L)))
            .schemas(schemas).time(time).parts(PART_TARGET_BYTES)
            .settings(s -> s.withBarrierTimeout(Duration.ofMillis(BARRIER_TIMEOUT_MS)).withMaxQueuedBytes(MAX_QUEUED_BYTES)
                .withThreads(POOL_THREADS))
            .build();
        for (int s = 0; s < SHARDS; s++) {
            String shard = "shard-" + s;
            metrics.put(shard, new ShardMetrics(shard));
            refusals.put(shard, new AtomicLong());
            coalescer.addShard(new ShardSink(shard, shard + "/", "test-consensus/" + shard,
                metrics.get(shard)));
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < TASK_THREADS; t++) {
            int index = t;
            threads.add(thread("task-" + t, () -> runTasks(index, new Random(seed * 31 + index), target)));
        }
        Thread clock = thread("clock", () -> runClock(new Random(seed + 7), stop));
        Thread reader = thread("gauges", () -> readGauges(stop));
        long resolvedAt;
        try {
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(150));
                if (t.isAlive()) {
                    errors.add(t.getName() + " did not finish");
                }
            }
            assertTrue(errors.isEmpty(), "errors: " + errors);
            resolvedAt = System.nanoTime();
            // builders that every participant abandoned while their barrier was open close on a tick
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> coalescer.liveBatches() == 0 && coalescer.queuedBytes() == 0);
        } finally {
            stop.set(true);
            clock.join();
            reader.join();
        }
        assertTrue(errors.isEmpty(), "errors: " + errors);
        coalescer.close();
        long retiredAt = System.nanoTime();
        Stats stats = verify(mode);
        System.out.printf("stress %s seed %d: %d lifecycles resolved in %d ms, retired after %d ms more, "
                + "checked in %d ms; %s; %d failed writes, %d gauge reads%n",
            mode, seed, lifecycles.get(), (resolvedAt - started) / 1_000_000, (retiredAt - resolvedAt) / 1_000_000,
            (System.nanoTime() - retiredAt) / 1_000_000, stats, failedWrites.get(), gaugeReads.get());
        assertTrue(lifecycles.get() >= target, "lifecycles " + lifecycles.get());
    }

    // ---- task threads ----

    private void runTasks(int index, Random random, int target) {
        List<Task> tasks = new ArrayList<>();
        for (int s = 0; s < SHARDS; s++) {
            Task task = new Task("shard-" + s, index);
            coalescer.register(task.shard, task.partition);
            task.registered = true;
            tasks.add(task);
        }
        List<Life> lives = new ArrayList<>();
        allLives.add(lives);
        long[] nextRowId = {(long) index << 40};
        try {
            while (lifecycles.get() < target) {
                step(tasks.get(random.nextInt(tasks.size())), random, lives, nextRowId);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (Task task : tasks) {
                while (!task.inFlight.isEmpty()) {
                    Life life = task.inFlight.get(random.nextInt(task.inFlight.size()));
                    if (random.nextInt(50) == 0) {
                        abandon(task, life);
                    } else {
                        poll(task, life, false);
                    }
                    if (System.nanoTime() > deadline) {
                        errors.add(task.shard + "/" + task.partition + ": " + task.inFlight.size()
                            + " handles never answered, e.g. batch " + task.inFlight.get(0).handle.batchId());
                        return;
                    }
                    Thread.yield();
                }
            }
        } catch (Throwable e) {
            errors.add(Thread.currentThread().getName() + ": " + e);
            throw e;
        }
    }

    private void step(Task task, Random random, List<Life> lives, long[] nextRowId) {
        int action = random.nextInt(100);
        if (!task.registered && action < 30) {
            coalescer.register(task.shard, task.partition);
            task.registered = true;
        } else if (action < 45 && task.inFlight.size() < MAX_IN_FLIGHT) {
            contribute(task, random, lives, nextRowId);
        } else if (action < 88 && !task.inFlight.isEmpty()) {
            poll(task, task.inFlight.get(random.nextInt(task.inFlight.size())), true);
        } else if (action < 89 && !task.inFlight.isEmpty()) {
            abandon(task, task.inFlight.get(random.nextInt(task.inFlight.size())));
        } else if (action < 90 && random.nextBoolean() && task.registered) {
            // the task moves away: mostly it abandons what it waits for (like a closing task)
            if (random.nextInt(3) != 0) {
                for (Life life : new ArrayList<>(task.inFlight)) {
                    abandon(task, life);
                }
            }
            coalescer.deregister(task.shard, task.partition);
            task.registered = false;
        } else if (action < 93) {
            coalescer.tick();
        } else if (!task.inFlight.isEmpty()) {
            for (Life life : new ArrayList<>(task.inFlight)) {
                if (!life.resolved()) {
                    poll(task, life, true);
                }
            }
        }
    }

    private void contribute(Task task, Random random, List<Life> lives, long[] nextRowId) {
        long lower = task.nextLower;
        int kind = random.nextInt(100);
        if (kind < 3 && lower >= INTERVAL) {
            lower -= INTERVAL * (1 + random.nextInt((int) Math.min(3, lower / INTERVAL)));
        }
        long upper = lower + INTERVAL * (kind >= 3 && kind < 8 ? 2 : 1);
        int n = random.nextInt(4);
        List<Update> updates = new ArrayList<>(n);
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = nextRowId[0]++;
            updates.add(TestUpdates.update(schemaId, TestUpdates.row(ids[i], "c", ids[i]), lower + i, i == 1 ? -1 : 1));
        }
        ContributionData c = new ContributionData(task.shard, task.partition, new TimeRange(lower, upper), updates, time.milliseconds());
        Optional<Handle> handle = coalescer.contribute(c);
        if (handle.isEmpty()) {
            refusals.get(task.shard).incrementAndGet();
            return;
        }
        Life life = new Life(c, handle.get(), ids);
        lives.add(life);
        task.inFlight.add(life);
        task.nextLower = Math.max(task.nextLower, upper);
        lifecycles.incrementAndGet();
    }

    private void poll(Task task, Life life, boolean restartOnFailure) {
        Outcome outcome = coalescer.poll(life.handle);
        if (outcome instanceof Outcome.Pending) {
            Thread.yield();
            return;
        }
        life.outcome = outcome;
        task.inFlight.remove(life);
        if (outcome instanceof Outcome.Failed && restartOnFailure) {
            // like a task: abandon what is in flight and contribute again from the failed lower
            for (Life other : new ArrayList<>(task.inFlight)) {
                abandon(task, other);
            }
            task.nextLower = life.contribution.lower();
        }
    }

    private void abandon(Task task, Life life) {
        coalescer.abandon(life.handle);
        life.abandoned = true;
        task.inFlight.remove(life);
    }

    // ---- clock and gauges ----

    private void runClock(Random random, AtomicBoolean stop) {
        while (!stop.get()) {
            time.sleep(1 + random.nextInt(4));
            coalescer.tick();
            LockSupport.parkNanos(500_000);
        }
    }

    private void readGauges(AtomicBoolean stop) {
        while (!stop.get()) {
            long orphaned = coalescer.orphanedBatches();
            long queued = coalescer.queuedBytes();
            int live = coalescer.liveBatches();
            long metricOrphans = 0;
            long sum = 0;
            for (ShardMetrics m : metrics.values()) {
                metricOrphans += m.orphanedBatches();
                sum += m.batchesBuilt() + m.participants() + m.batchesFailed() + m.batchesAbandoned()
                    + m.barrierTimeouts() + m.partsWritten() + m.partBytes() + m.builderRefusals();
            }
            if (orphaned != 0 || metricOrphans != 0 || queued < 0 || live < 0 || sum < 0) {
                errors.add("gauges: orphaned " + orphaned + "/" + metricOrphans + ", queued bytes " + queued
                    + ", live batches " + live);
            }
            gaugeReads.incrementAndGet();
            LockSupport.parkNanos(100_000);
        }
    }

    // ---- the end ----

    private record Stats(int reported, int covered, int failed, int abandoned, int droppedOrFailedUnheard,
                         long barrierTimeouts, long refusals) {
        @Override
        public String toString() {
            return reported + " batches reported, " + covered + " covered, " + failed + " failed answers, "
                + abandoned + " abandoned handles, " + droppedOrFailedUnheard + " batches all abandoned, "
                + barrierTimeouts + " barrier timeouts, " + refusals + " refusals";
        }
    }

    private Stats verify(CoalescingMode mode) {
        Map<String, List<Life>> byBatch = new HashMap<>();
        for (List<Life> lives : allLives) {
            for (Life life : lives) {
                assertTrue(life.resolved(), "unresolved handle of batch " + life.handle.batchId());
                byBatch.computeIfAbsent(life.handle.batchId(), b -> new ArrayList<>()).add(life);
            }
        }
        Map<String, Integer> reportedPerShard = new HashMap<>();
        Map<String, Integer> failedPerShard = new HashMap<>();
        Map<String, Integer> allAbandonedPerShard = new HashMap<>();
        Set<Long> rowsReported = new HashSet<>();
        int covered = 0;
        int failedAnswers = 0;
        int abandoned = 0;
        for (Map.Entry<String, List<Life>> entry : byBatch.entrySet()) {
            String batchId = entry.getKey();
            List<Life> lives = entry.getValue();
            String shard = lives.get(0).contribution.shard();
            Batch report = null;
            int failed = 0;
            int coveredHere = 0;
            for (Life life : lives) {
                if (life.outcome instanceof Outcome.Report r) {
                    assertEquals(null, report, "batch " + batchId + " reported to two participants");
                    report = r.batch();
                } else if (life.outcome instanceof Outcome.Covered c) {
                    assertEquals(batchId, c.batchId(), "covered by another batch");
                    coveredHere++;
                } else if (life.outcome instanceof Outcome.Failed) {
                    failed++;
                } else {
                    assertTrue(life.abandoned, "unanswered handle of batch " + batchId);
                    abandoned++;
                }
            }
            covered += coveredHere;
            failedAnswers += failed;
            if (report != null) {
                assertEquals(0, failed, "batch " + batchId + " both reported and failed");
                checkReported(batchId, report, lives, rowsReported);
                reportedPerShard.merge(shard, 1, Integer::sum);
            } else if (failed > 0) {
                assertEquals(0, coveredHere, "batch " + batchId + " covered and failed");
                failedPerShard.merge(shard, 1, Integer::sum);
            } else {
                assertEquals(0, coveredHere, "batch " + batchId + " covered but reported by nobody");
                allAbandonedPerShard.merge(shard, 1, Integer::sum);
            }
        }
        long timeouts = 0;
        long refused = 0;
        int reported = 0;
        int allAbandoned = 0;
        for (Map.Entry<String, ShardMetrics> entry : metrics.entrySet()) {
            String shard = entry.getKey();
            ShardMetrics m = entry.getValue();
            int r = reportedPerShard.getOrDefault(shard, 0);
            int f = failedPerShard.getOrDefault(shard, 0);
            int a = allAbandonedPerShard.getOrDefault(shard, 0);
            // every builder either finished (reported, or dropped when all abandoned it) or failed
            assertEquals(r + f + a, m.batchesBuilt() + m.batchesFailed(), shard + ": builders ended");
            assertEquals(m.batchesBuilt() - r, m.batchesAbandoned(), shard + ": finished but unreported");
            assertTrue(m.batchesAbandoned() <= a, shard + ": dropped more than were abandoned by all");
            assertEquals(0, m.orphanedBatches(), shard + ": orphaned");
            assertEquals(refusals.get(shard).get(), m.builderRefusals(), shard + ": refusals");
            timeouts += m.barrierTimeouts();
            refused += m.builderRefusals();
            reported += r;
            allAbandoned += a;
        }
        assertEquals(0, coalescer.orphanedBatches());
        assertEquals(0, coalescer.liveBatches());
        assertEquals(0, coalescer.queuedBytes());
        Stats stats = new Stats(reported, covered, failedAnswers, abandoned, allAbandoned, timeouts, refused);
        assertTrue(reported > 0 && failedAnswers > 0 && abandoned > 0, "the run exercised too little: " + stats);
        if (mode != CoalescingMode.NONE) {
            assertTrue(covered > 0, "nothing was coalesced: " + stats);
        }
        return stats;
    }

    /** The report holds exactly its participants' contributions, each partition once, and their rows. */
    private void checkReported(String batchId, Batch batch, List<Life> lives, Set<Long> rowsReported) {
        ContributionData first = lives.get(0).contribution;
        assertEquals(batchId, batch.getBatchId());
        assertEquals(first.shard(), batch.getShard());
        assertEquals(first.lower(), batch.getLower());
        assertEquals(first.upper(), batch.getUpper());
        List<String> expected = new ArrayList<>();
        List<Long> expectedRows = new ArrayList<>();
        for (Life life : lives) {
            ContributionData c = life.contribution;
            expected.add(c.partition() + "@" + c.lower() + "-" + c.upper() + "#" + c.updates().size());
            for (long id : life.rowIds) {
                expectedRows.add(id);
            }
        }
        List<String> actual = new ArrayList<>();
        Set<Integer> partitions = new HashSet<>();
        for (Contribution c : batch.getContributions()) {
            actual.add(c.getPartition() + "@" + c.getLower() + "-" + c.getUpper() + "#" + c.getUpdates());
            assertTrue(partitions.add(c.getPartition()), "batch " + batchId + " holds partition "
                + c.getPartition() + " twice: " + actual);
        }
        assertEquals(expected.stream().sorted().toList(), actual.stream().sorted().toList(),
            "contributions of batch " + batchId);
        List<Long> rows = new ArrayList<>();
        for (Part part : batch.getParts()) {
            for (TestUpdates.ReadUpdate u : TestUpdates.read(stored.get(part.getKey()))) {
                long id = (Long) u.row().get("id");
                rows.add(id);
                if (!rowsReported.add(id)) {
                    fail("row " + id + " is in two reported batches (the second: " + batchId + ")");
                }
            }
        }
        assertEquals(expectedRows.stream().sorted().toList(), rows.stream().sorted().toList(),
            "rows of batch " + batchId);
    }

    private Thread thread(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                errors.add(name + ": " + e);
            }
        }, "stress-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Fails a seeded random share of writes, some of them after writing. */
    private final class FailingBlobStore extends ForwardingBlobStore {
        private final Random random;

        FailingBlobStore(Random random) {
            super(stored);
            this.random = random;
        }

        @Override
        public void putIfAbsent(String key, byte[] data, String owner) {
            int roll;
            synchronized (random) {
                roll = random.nextInt(100);
            }
            if (roll < FAIL_PERCENT) {
                failedWrites.incrementAndGet();
                throw new BlobWriteFailedException("stress: " + key + " not written");
            }
            stored.putIfAbsent(key, data, owner);
            if (roll < FAIL_PERCENT + MAYBE_WRITTEN_PERCENT) {
                failedWrites.incrementAndGet();
                throw new BlobMaybeWrittenException("stress: " + key + " maybe written");
            }
        }
    }
}
