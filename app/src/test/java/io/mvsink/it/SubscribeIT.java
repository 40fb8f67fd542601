package io.mvsink.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.mvsink.MvsinkApp;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import io.mvsink.produce.CorrectionProducer;
import io.mvsink.produce.Workload;
import io.mvsink.produce.WorkloadRunner;
import io.mvsink.read.Change;
import io.mvsink.read.ResumeToken;
import io.mvsink.read.ShardReader;
import io.mvsink.read.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Subscriptions on the real stack while the shard compacts, rolls up and collects blobs (the
 * settings of {@link BoundedStateIT}, a since lag of 30 s: a child JVM, on a busy machine, starts within it): a subscriber started as of a time in
 * the past sums, at every token, to the snapshot as of the token's upper; one stopped and resumed
 * from its last token, and a {@code mvsink subscribe} child killed with -9 and resumed from its last
 * printed token, print exactly what the uninterrupted one printed (and one with {@code --format avro}
 * resumed from the same token writes the same changes); a token the since has passed is refused, and so is
 * one of another shard or consensus topic.
 */
@ExtendWith(LocalStackExtension.class)
class SubscribeIT {
    private static final long INTERVAL_MS = 100;

    @Test
    void shouldFollowAShardExactlyAcrossStopsKillsCompactionAndRollups(LocalStack stack) throws Exception {
        Properties props = new Properties();
        props.put(MvsinkConfig.BATCH_INTERVAL_MS, Long.toString(INTERVAL_MS));
        props.put(MvsinkConfig.PUNCTUATE_INTERVAL_MS, "20");
        props.put(MvsinkConfig.COMPACTION_SINCE_LAG_MS, "30000");
        props.put(MvsinkConfig.ROLLUP_APPENDS, "20");
        // tiny batches stay inline, and compaction merges them into a blob once they total 1 KiB (the default
        // 128 KiB may not be reached within the test, and then nothing is compacted)
        props.put(MvsinkConfig.INLINE_MERGE_BYTES, "1024");
        props.put(MvsinkConfig.GC_GRACE_MS, "32000");
        props.put(MvsinkConfig.GC_INTERVAL_MS, "5000");
        props.put(MvsinkConfig.RECONTRIBUTE_TIMEOUT_MS, "4000");
        props.put("streams.producer.transaction.timeout.ms", "5000");
        props.put(MvsinkConfig.BARRIER_TIMEOUT_MS, "500");
        try (SinkHarness sink = new SinkHarness(stack, 2, props);
             CorrectionProducer producer = sink.producer()) {
            BoundedStateIT.createConsensusTopic(sink);
            MvsinkApp app = sink.startApp(2);
            WorkloadRunner runner = new WorkloadRunner(producer, new Workload(14, 150, 0.4), Time.SYSTEM);
            runner.run(200, 3_000, Long.MAX_VALUE, INTERVAL_MS, n -> { });
            // until the app has caught up with the backlog of its start (the since follows the upper)
            runUntil(runner, () -> sink.state().upper() > System.currentTimeMillis() - 3_000);
            long asOf = sink.state().upper() - 1_000;

            Collector whole = new Collector(true);
            Collector first = new Collector(false);
            CliSubscriber killed = CliSubscriber.start(sink, "killed", List.of());
            try (Follow uninterrupted = Follow.asOf(sink, asOf, whole)) {
                Follow stopped = Follow.asOf(sink, asOf, first);
                // the workload goes on until both have seen a few seals (the child JVM takes seconds to start)
                runUntil(runner, () -> first.seen() >= 5 && killed.tokens() >= 5);
                stopped.close();
                List<String> beforeKill = killed.kill9();
                ResumeToken last = first.last;
                // the child's restart is its pause; the resume must come before the since passes the token
                CliSubscriber resumed = CliSubscriber.start(sink, "resumed",
                    List.of("--resume", lastToken(beforeKill)));
                CliSubscriber resumedAvro = CliSubscriber.start(sink, "resumed-avro",
                    List.of("--resume", lastToken(beforeKill), "--format", "avro"));
                // while the second subscriber is away the shard seals, merges and rolls up (20 appends a rollup)
                runner.run(200, 3_000, Long.MAX_VALUE, INTERVAL_MS, n -> { });
                Collector rest = new Collector(false);
                try (Follow again = Follow.resume(sink, last, rest)) {
                    runner.run(200, 3_000, Long.MAX_VALUE, INTERVAL_MS, n -> { });
                    long end = runner.sealThrough(INTERVAL_MS);
                    sink.awaitUpper(end);
                    await().atMost(Duration.ofSeconds(90)).until(() -> whole.reached(end) && rest.reached(end)
                        && resumed.reached(end) && resumedAvro.reached(end));
                    List<String> afterKill = resumed.stop();
                    assertEquals(cliLines(afterKill, end), cliLines(resumedAvro.stop(), end),
                        "--format avro from the same token: the same changes as the JSON lines");

                    assertNull(whole.failure, "uninterrupted subscriber");
                    List<String> expected = lines(whole.changes, end);
                    List<Change> resumedChanges = new ArrayList<>(first.changes);
                    resumedChanges.addAll(rest.changes);
                    assertEquals(expected, lines(resumedChanges, end), "stopped + resumed = uninterrupted");
                    List<String> cli = new ArrayList<>(CliSubscriber.upToLastToken(beforeKill));
                    cli.addAll(afterKill);
                    // the child started later, as of everything sealed then: from its snapshot on it equals the rest
                    long cliAsOf = ResumeToken.parse(read(cli.stream().filter(l -> l.startsWith("{\"token\""))
                        .findFirst().orElseThrow()).get("token").asText()).upper() - 1;
                    assertTrue(cliAsOf > asOf, "the child's snapshot is newer: " + cliAsOf);
                    assertEquals(snapshotLines(sum(whole.changes, cliAsOf + 1), cliAsOf),
                        sorted(cliLines(cli, cliAsOf + 1)), "the child's snapshot = the sum of the uninterrupted");
                    assertEquals(expected.subList(lines(whole.changes, cliAsOf + 1).size(), expected.size()),
                        cliLines(cli, end).subList(cliLines(cli, cliAsOf + 1).size(), cliLines(cli, end).size()),
                        "killed -9 + resumed (CLI) = uninterrupted, after the child's snapshot");
                    assertTrue(whole.checks >= 20, "sums checked at " + whole.checks + " tokens");
                    assertEquals(List.of(), whole.mismatches, "sum of the output as of each token = snapshot");
                    assertEquals(TopicModel.read(sink.clientProps(), sink.correctionsTopic(), sink.registry, end),
                        sum(whole.changes, end), "sum of the output below the end = the produced model");
                    assertTrue(app.metrics().compactions() > 0 && app.metrics().rollups() > 0,
                        "compactions " + app.metrics().compactions() + ", rollups " + app.metrics().rollups());
                    System.err.printf("SubscribeIT: %d tokens, %d changes, %d sum checks, %d compactions, "
                            + "%d rollups, since %d, resumed at %s%n", whole.tokens.size(), whole.changes.size(),
                        whole.checks, app.metrics().compactions(), app.metrics().rollups(), sink.state().since(), last);

                    ResumeToken old = whole.tokens.get(0);
                    runUntil(runner, () -> sink.state().since() >= old.upper());
                    try (ShardReader reader = Follow.open(sink)) {
                        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                            () -> reader.resume(old, new Collector(false)));
                        assertTrue(refused.getMessage().contains("below the since of shard"), refused.getMessage());
                    }
                    try (ShardReader reader = Follow.open(sink)) {
                        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                            () -> reader.resume(new ResumeToken("other-app-consensus", last.shard(), last.seqno(),
                                last.upper()), new Collector(false)));
                        assertTrue(refused.getMessage().contains("is of shard " + last.shard() + " on consensus topic "
                            + "other-app-consensus, not of shard " + last.shard() + " on consensus topic "
                            + last.consensusTopic()), refused.getMessage());
                    }
                    // a token of another shard, behind this shard's upper: refused, not read on top of this shard
                    ResumeToken ours = ResumeToken.parse(lastToken(afterKill));
                    String ofReturns = new ResumeToken(ours.consensusTopic(), "returns", ours.seqno(), ours.upper())
                        .toString();
                    String said = CliSubscriber.start(sink, "other-shard", List.of("--resume", ofReturns)).exited(1);
                    assertTrue(said.contains("ERROR mvsink - --resume: token " + ofReturns + " is of shard returns on "
                        + "consensus topic " + ours.consensusTopic() + ", not of shard " + ours.shard()), said);
                }
            }
        }
    }

    private static void runUntil(WorkloadRunner runner, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not reached within 90 s");
            runner.run(200, 500, Long.MAX_VALUE, INTERVAL_MS, n -> { });
        }
    }

    /** The changes below {@code end}, one comparable line each (rows in one JSON rendering). */
    private static List<String> lines(List<Change> changes, long end) {
        List<String> lines = new ArrayList<>();
        for (Change c : changes) {
            if (c.time() < end) {
                lines.add(render(read(c.row())) + " " + c.time() + " " + c.diff());
            }
        }
        return lines;
    }

    private static List<String> cliLines(List<String> printed, long end) {
        List<String> lines = new ArrayList<>();
        for (String text : printed) {
            JsonNode line = read(text);
            if (line.has("row") && line.get("time").asLong() < end) {
                lines.add(render(line.get("row")) + " " + line.get("time").asLong() + " " + line.get("diff").asLong());
            }
        }
        return lines;
    }

    private static List<String> snapshotLines(Map<String, Long> rows, long asOf) {
        List<String> lines = new ArrayList<>();
        rows.forEach((row, count) -> lines.add(render(read(row)) + " " + asOf + " " + count));
        return sorted(lines);
    }

    private static List<String> sorted(List<String> lines) {
        List<String> sorted = new ArrayList<>(lines);
        Collections.sort(sorted);
        return sorted;
    }

    private static Map<String, Long> sum(List<Change> changes, long end) {
        Map<String, Long> sum = new HashMap<>();
        changes.stream().filter(c -> c.time() < end).forEach(c -> sum.merge(c.row(), c.diff(), Long::sum));
        sum.values().removeIf(n -> n == 0);
        return sum;
    }

    private static String lastToken(List<String> printed) {
        List<String> kept = CliSubscriber.upToLastToken(printed);
        return read(kept.get(kept.size() - 1)).get("token").asText();
    }

    private static JsonNode read(String json) {
        return CliSubscriber.read(json);
    }

    private static String render(JsonNode node) {
        return node.toString();
    }

    /** What a subscription delivered; with {@code check}, the running sum is compared to a snapshot at each token. */
    private static final class Collector implements Subscription.Listener {
        final List<Change> changes = Collections.synchronizedList(new ArrayList<>());
        final List<ResumeToken> tokens = Collections.synchronizedList(new ArrayList<>());
        final List<String> mismatches = new ArrayList<>();
        private final boolean check;
        private final Map<String, Long> sum = new HashMap<>();
        ShardReader reader;
        volatile ResumeToken last;
        volatile Throwable failure;
        int checks;

        Collector(boolean check) {
            this.check = check;
        }

        @Override
        public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
            rows.forEach(this::add);
            reached(token);
        }

        @Override
        public void seal(List<Change> sealed, ResumeToken token) {
            sealed.forEach(this::add);
            reached(token);
        }

        private void add(Change change) {
            changes.add(change);
            sum.merge(change.row(), change.diff(), Long::sum);
        }

        private void reached(ResumeToken token) {
            if (check) {
                sum.values().removeIf(n -> n == 0);
                Map<String, Long> snapshot = reader.snapshot(token.upper() - 1);
                if (!snapshot.equals(sum)) {
                    mismatches.add("at " + token + ": snapshot " + snapshot.size() + " rows, sum " + sum.size());
                }
                checks++;
            }
            tokens.add(token);
            last = token;
        }

        boolean reached(long upper) {
            ResumeToken at = seen() > 0 ? last : null;
            return at != null && at.upper() >= upper;
        }

        /** Tokens delivered so far; an AssertionError if the subscription failed. */
        int seen() {
            if (failure != null) {
                throw new AssertionError("the subscription failed", failure);
            }
            return tokens.size();
        }
    }

    /** A subscription polled on a thread of its own until closed. */
    private static final class Follow implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;

        private Follow(SinkHarness sink, Collector collector, java.util.function.Function<ShardReader, Subscription> start) {
            this.thread = new Thread(() -> {
                try (ShardReader reader = open(sink)) {
                    collector.reader = reader;
                    Subscription subscription = start.apply(reader);
                    while (!stop) {
                        subscription.poll(Duration.ofMillis(200));
                    }
                } catch (Throwable e) {
                    collector.failure = e;
                    e.printStackTrace();
                }
            }, "subscriber");
            thread.start();
        }

        static ShardReader open(SinkHarness sink) {
            return ShardReader.open(sink.clientProps(), sink.name + "-consensus", sink.correctionsTopic(), sink.blobs,
                sink.registry, sink.rowSubject, Duration.ofSeconds(30));
        }

        static Follow asOf(SinkHarness sink, long asOf, Collector collector) {
            return new Follow(sink, collector, reader -> reader.subscribe(asOf, collector));
        }

        static Follow resume(SinkHarness sink, ResumeToken token, Collector collector) {
            return new Follow(sink, collector, reader -> reader.resume(token, collector));
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join(30_000);
        }
    }
}
