package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mvsink.avro.StateDiff;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ConsensusReader;
import io.mvsink.consensus.ShardState;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.utils.Time;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Chaos over processes, kills and rebalances (issue 4): three {@code mvsink run} JVMs of one
 * shard (4 stream threads each, barrier mode, 12 partitions) while a producer runs throughout.
 * At random moments a random instance is killed with SIGKILL and restarted on its state dir (at
 * least 20 times), a fourth instance is added, and later one is stopped with SIGTERM (rebalances
 * while intervals are open). Every {@link #ACTIONS_PER_CHECK} actions the shard must have sealed
 * something since the last check (a stall past {@link #STALL_LIMIT} fails with what the broker
 * says about it). At the
 * end the snapshot equals the model read back from the corrections topic (no update lost, none
 * duplicated), every append on the consensus topic is an exact cover of the partitions, and no
 * child counted an orphaned batch (read over JMX before each stop and from the survivors).
 *
 * <p>A seeded {@link Random} picks the actions and delays and seeds the workload; the seed is
 * printed, and {@code -Dmvsink.chaos.seed=N} replays a run's choices (not its timing). The
 * children log mvsink at info, appends and Kafka Streams' assignments under
 * {@code target/child-apps/}.
 */
@ExtendWith(LocalStackExtension.class)
class ProcessKillIT {
    private static final int PARTITIONS = 12;
    private static final int INSTANCES = 3;
    private static final int KILLS = 20;
    private static final int REBALANCES = 2;
    /** The default grid: half as many seals and copy pieces as the harness's 500 ms, on two busy cores. */
    private static final long INTERVAL_MS = 1000;
    private static final double UPDATES_PER_SECOND = 250;
    private static final Duration STALL_LIMIT = Duration.ofSeconds(90);
    /** The test broker's minimum session timeout, kept: how long the group takes to notice a killed member. */
    private static final long SESSION_TIMEOUT_MS = 6000;
    /** Issue 12 item 13's target for the longest stall: the session timeout + 2 batch intervals + 5 s. */
    private static final long STALL_TARGET_MS = SESSION_TIMEOUT_MS + 2 * INTERVAL_MS + 5000;
    /**
     * Actions between checks that the shard sealed again: faults come at random moments, often
     * before the last one has healed (waiting for a seal after each would make the run long and the
     * faults polite), and every few actions the shard must show it still seals.
     */
    private static final int ACTIONS_PER_CHECK = 5;
    /**
     * After the chaos, kills one at a time: each after the shard sealed steadily for a while, each
     * watched long enough for the restarted JVM (15-20 s to run here) to join and take tasks back.
     * Item 13's target is about one kill; the chaos's faults overlap (a kill every 1-6 s, each
     * costing a session timeout), so its longest stall holds several. One in CI (each costs about a
     * minute and only prints its figure); {@code -Dmvsink.chaos.isolated-kills=3} for the figures.
     */
    private static final int ISOLATED_KILLS = Integer.getInteger("mvsink.chaos.isolated-kills", 1);
    private static final Duration ISOLATED_WATCH = Duration.ofSeconds(45);
    /** Sealing counts as steady once the upper advanced at least every 2.5 s (the grid is 1 s) for 8 s. */
    private static final long STEADY_MS = 8000;
    private static final long STEADY_GAP_MS = 2500;

    /**
     * Small, quick-starting children (four of them share two cores with the broker, Azurite and
     * Apicurio) that log enough to tell a stall's story.
     */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        ChildApp.logLevels(Map.of(
            "io.mvsink", "INFO",
            "io.mvsink.topology.AppenderProcessor", "DEBUG",
            "org.apache.kafka.streams.processor.internals.StreamThread", "INFO",
            "org.apache.kafka.streams.processor.internals.StreamsPartitionAssignor", "INFO",
            "org.apache.kafka.streams.processor.internals.StoreChangelogReader", "INFO",
            "org.apache.kafka.streams.processor.internals.DefaultStateUpdater", "INFO")));

    /**
     * Every child: 4 stream threads, barrier mode, and quick recovery. The group notices a killed
     * member after the broker's minimum session timeout (6 s, the test broker's default, kept).
     * Membership is dynamic, not static: a restarted child joins as a new member, so every kill and
     * restart moves tasks (what this test is about), and a child stopped with SIGTERM leaves the
     * group as it closes (mvsink closes with {@code LEAVE_GROUP}; Kafka Streams' default kept it in
     * the group until its session timed out). A killed child's open transactions are aborted by the
     * survivors once its members left the group (the app's {@code DepartedTransactions}), not by
     * its restart: a restarted JVM takes 15-20 s to run on these two busy cores, and a thread of it
     * that gets no task never fences its predecessor. A contribution lost with another task's
     * aborted transaction is contributed again after 30 s instead of the default 60 s (lower makes
     * rounds of copies pile onto a loaded machine).
     */
    private static final List<String> CHILD_ARGS = List.of(
        "--set", MvsinkConfig.NUM_STREAM_THREADS + "=4",
        "--set", MvsinkConfig.COALESCING_MODE + "=" + MvsinkConfig.MODE_BARRIER,
        "--set", "streams.session.timeout.ms=" + SESSION_TIMEOUT_MS,
        "--set", "streams.heartbeat.interval.ms=1500",
        "--set", MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS + "=30000");

    @Test
    void shouldSealExactlyWhileInstancesAreKilledAddedAndRemoved(LocalStack stack) throws Exception {
        long seed = Long.getLong("mvsink.chaos.seed", new Random().nextLong());
        System.err.println("ProcessKillIT: seed " + seed + " (replay with -Dmvsink.chaos.seed=" + seed + ")");
        long startedAt = System.nanoTime();
        Properties props = new Properties();
        props.put(MvsinkConfig.COALESCING_MODE, MvsinkConfig.MODE_BARRIER);
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(INTERVAL_MS));
        try (SinkHarness sink = new SinkHarness(stack, PARTITIONS, props);
             CorrectionProducer producer = sink.producer();
             ChildFleet fleet = new ChildFleet(sink, INSTANCES + 1, JVM_OPTIONS, CHILD_ARGS)) {
            for (int i = 0; i < INSTANCES; i++) {
                fleet.start(i);
            }
            Producing producing = Producing.start(
                new WorkloadRunner(producer, new Workload(seed, 2000, 0.3), Time.SYSTEM));
            sink.awaitUpper(1);
            try (SealWatch watch = new SealWatch(sink.clientProps(), sink.name + "-consensus", sink.correctionsTopic())) {
                Chaos chaos = new Chaos(sink, watch, fleet, new Random(seed), startedAt);
                while (chaos.kills < KILLS || chaos.added < REBALANCES || chaos.removed < REBALANCES) {
                    chaos.step();
                }
                for (int i = 0; i < ISOLATED_KILLS; i++) {
                    chaos.isolatedKill();
                }
                chaos.awaitSealThrough(producing.stop());
                fleet.assertAllAlive();
                check(sink, fleet, chaos, producing.runner().sent(), seed, startedAt);
            }
        }
    }

    private static void check(SinkHarness sink, ChildFleet fleet, Chaos chaos, long updates, long seed,
                              long startedAt) {
        ShardState state = sink.state();
        Map<String, Long> model = TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry,
            state.upper());
        Map<String, Long> snapshot = sink.snapshot(state);
        long lost = difference(model, snapshot);
        long duplicated = difference(snapshot, model);
        List<StateDiff> diffs = ConsensusReader.diffs(sink.clientProps(), sink.name + "-consensus",
            sink.correctionsTopic(), Duration.ofSeconds(30)).stream().filter(d -> !ShardState.isCompaction(d)).toList();
        long orphaned = fleet.orphanedBatches();
        long outsideOutages = outsideOutages(fleet, chaos.watch);
        System.err.printf("ProcessKillIT summary: seed=%d kills=%d restarts=%d added=%d removed=%d updates=%d "
                + "intervalsSealed=%d appends=%d lost=%d duplicated=%d orphaned=%d (children never read: %d) "
                + "longestStall=%.1fs (outside outages %.1fs) recoveryFromLastFault=%.1fs isolatedKills=%s longest %.1fs "
                + "(target %.1fs) "
                + "runTime=%.1fs%n",
            seed, chaos.kills, chaos.kills, chaos.added, chaos.removed, updates,
            (state.upper() - diffs.get(0).getUpper()) / INTERVAL_MS + 1, diffs.size(), lost, duplicated,
            orphaned, fleet.stoppedUnread(), chaos.watch.longestStall().toMillis() / 1e3, outsideOutages / 1e3,
            longestRecovery(chaos.watch.advancesMs(), chaos.faultsMs) / 1e3,
            chaos.isolatedStallsMs.stream().map(ms -> String.format(Locale.ROOT, "%.1fs", ms / 1e3)).toList(),
            chaos.isolatedStallsMs.stream().mapToLong(Long::longValue).max().orElse(-1) / 1e3,
            STALL_TARGET_MS / 1e3, (System.nanoTime() - startedAt) / 1e9);

        assertEquals(0, lost, "updates lost (model count above snapshot count, summed over rows)");
        assertEquals(0, duplicated, "updates duplicated (snapshot count above model count, summed over rows)");
        assertEquals(model, snapshot);
        sink.assertEveryAppendIsAnExactCover();
        assertTrue(diffs.stream().allMatch(d -> d.getPartitionCount() == PARTITIONS), "every append covers 12 partitions");
        assertEquals(0, orphaned, "orphaned batches over every child that ran");
    }

    /**
     * The longest stall less the time in it when no child ran at all (every one killed, stopped or still
     * starting): the part the sink can answer for. -1 if the children's logs cannot be read.
     */
    private static long outsideOutages(ChildFleet fleet, SealWatch watch) {
        try {
            return Outages.read(fleet.everyChild()).longestStallOutside(watch.advancesMs());
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    /**
     * The longest time from a stall's last fault to the seal that ended it: how long the shard took
     * to recover from the last of several overlapping faults (a stall without a fault in it counts
     * whole). Item 13's target is about one kill; in the chaos, each kill in a row restarts the wait.
     */
    static long longestRecovery(List<Long> advancesMs, List<Long> faultsMs) {
        long longest = 0;
        for (int i = 1; i < advancesMs.size(); i++) {
            long from = advancesMs.get(i - 1);
            long to = advancesMs.get(i);
            long lastFault = from;
            for (long f : faultsMs) {
                if (f >= from && f < to) {
                    lastFault = Math.max(lastFault, f);
                }
            }
            longest = Math.max(longest, to - lastFault);
        }
        return longest;
    }

    /** Sum over rows of how far {@code a}'s count exceeds {@code b}'s. */
    private static long difference(Map<String, Long> a, Map<String, Long> b) {
        Set<String> rows = new HashSet<>(a.keySet());
        rows.addAll(b.keySet());
        return rows.stream().mapToLong(r -> Math.max(0, a.getOrDefault(r, 0L) - b.getOrDefault(r, 0L))).sum();
    }

    /** The seeded chaos: random pauses, then a kill and restart, an added instance or a removed one. */
    private static final class Chaos {
        final SinkHarness sink;
        final SealWatch watch;
        final ChildFleet fleet;
        final Random random;
        final long startedAt;
        int kills;
        int added;
        int removed;
        int actions;
        long upper;
        /** When each action (kill, SIGTERM, added instance) started, wall clock. */
        final List<Long> faultsMs = new ArrayList<>();
        /** Per isolated kill, the longest time the upper stood still from the last seal before it. */
        final List<Long> isolatedStallsMs = new ArrayList<>();

        Chaos(SinkHarness sink, SealWatch watch, ChildFleet fleet, Random random, long startedAt) {
            this.sink = sink;
            this.watch = watch;
            this.fleet = fleet;
            this.random = random;
            this.startedAt = startedAt;
        }

        void step() throws Exception {
            // a random moment: the pause is the point, there is no condition to wait for
            Thread.sleep(1_000 + random.nextInt(5_000));
            if (++actions % ACTIONS_PER_CHECK == 0) {
                awaitSealSince(upper, "a seal since the check " + ACTIONS_PER_CHECK + " actions ago");
            }
            fleet.assertAllAlive();
            fleet.readAll();
            List<Integer> running = fleet.running();
            double dice = random.nextDouble();
            faultsMs.add(System.currentTimeMillis());
            if (running.size() > INSTANCES && (dice < 0.35 || kills >= KILLS)) {
                int index = running.get(random.nextInt(running.size()));
                assertTrue(fleet.terminate(index), "slot " + index + " stops within 60 s of SIGTERM");
                removed++;
                log("removed slot " + index + " (SIGTERM)");
            } else if (running.size() == INSTANCES && (dice < 0.25 || kills >= KILLS)) {
                int index = fleet.empty().get(0);
                fleet.start(index);
                added++;
                log("added slot " + index);
            } else {
                int index = running.get(random.nextInt(running.size()));
                fleet.kill(index);
                fleet.start(index);
                kills++;
                log("killed and restarted slot " + index);
            }
        }

        /**
         * Waits until the shard seals steadily, kills one running instance with SIGKILL and restarts it,
         * and records the longest gap between seals from the last one before the kill until the watch
         * ends (the restarted JVM's join and the tasks it takes back included).
         */
        void isolatedKill() throws Exception {
            try {
                await("steady sealing").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(this::sealingSteadily);
            } catch (ConditionTimeoutException e) {
                log("no steady sealing within 60 s before an isolated kill; killing anyway");
            }
            List<Integer> running = fleet.running();
            int index = running.get(random.nextInt(running.size()));
            long killedAt = System.currentTimeMillis();
            faultsMs.add(killedAt);
            fleet.kill(index);
            fleet.start(index);
            kills++;
            log("isolated kill of slot " + index);
            Thread.sleep(ISOLATED_WATCH.toMillis()); // the watch's length is the point: the restart joins in it
            List<Long> advances = watch.advancesMs();
            long last = advances.stream().filter(t -> t <= killedAt).reduce((a, b) -> b).orElse(killedAt);
            long longest = 0;
            for (long t : advances) {
                if (t > last) {
                    longest = Math.max(longest, t - last);
                    last = t;
                }
            }
            longest = Math.max(longest, System.currentTimeMillis() - last);
            isolatedStallsMs.add(longest);
            log(String.format(Locale.ROOT, "isolated kill of slot %d: longest stall %.1fs", index, longest / 1e3));
            upper = watch.upper();
        }

        /** Over the last {@link #STEADY_MS}, the upper never stood still for {@link #STEADY_GAP_MS} or more. */
        private boolean sealingSteadily() {
            long now = System.currentTimeMillis();
            long previous = now - STEADY_MS;
            for (long t : watch.advancesMs()) {
                if (t >= previous) {
                    if (t - previous >= STEADY_GAP_MS) {
                        return false;
                    }
                    previous = t;
                }
            }
            return now - previous < STEADY_GAP_MS;
        }

        /**
         * Waits until the shard's upper passes {@code since} (the shard kept sealing), failing after the
         * stall limit; a stall longer than a third of the limit prints what the broker says about it.
         */
        void awaitSealSince(long since, String what) {
            try {
                await(what).atMost(STALL_LIMIT.dividedBy(3)).pollInterval(Duration.ofMillis(100))
                    .until(() -> watch.upper() > since);
            } catch (ConditionTimeoutException e) {
                System.err.println("ProcessKillIT: no seal for a while; " + stallReport());
                try {
                    await(what).atMost(STALL_LIMIT.minus(STALL_LIMIT.dividedBy(3))).pollInterval(Duration.ofMillis(100))
                        .until(() -> watch.upper() > since);
                } catch (ConditionTimeoutException again) {
                    throw new AssertionError("no seal above " + since + " within " + STALL_LIMIT + " (" + what + "); "
                        + stallReport(), again);
                }
            }
            upper = watch.upper();
        }

        /** Waits until the shard seals {@code target}, failing only if it stops sealing for the stall limit. */
        void awaitSealThrough(long target) {
            while (watch.upper() < target) {
                awaitSealSince(watch.upper(), "the final seal at " + target);
            }
        }

        private String stallReport() {
            return StallReport.describe(sink.clientProps(), sink.name, sink.correctionsTopic(), watch.upper());
        }

        private void log(String action) {
            System.err.printf("ProcessKillIT %6.1fs: %s; upper %d; running %s%n",
                (System.nanoTime() - startedAt) / 1e9, action, upper, fleet.running());
        }
    }

    /** The producer thread: the workload at a steady rate with progress every 100 ms, until stopped. */
    private record Producing(WorkloadRunner runner, AtomicBoolean stopping, CompletableFuture<Void> thread) {
        static Producing start(WorkloadRunner runner) {
            AtomicBoolean stopping = new AtomicBoolean();
            CompletableFuture<Void> thread = CompletableFuture.runAsync(() -> {
                while (!stopping.get()) {
                    runner.run(UPDATES_PER_SECOND, 1_000, Long.MAX_VALUE, 100, n -> { });
                }
            });
            return new Producing(runner, stopping, thread);
        }

        /** Stops producing and sends the final progress; returns its upper. */
        long stop() {
            stopping.set(true);
            thread.join();
            return runner.sealThrough(INTERVAL_MS);
        }
    }
}
