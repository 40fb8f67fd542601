package io.mvsink.bench;

import io.mvsink.Wiring;
import io.mvsink.avro.StateDiff;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.read.Change;
import io.mvsink.read.ResumeToken;
import io.mvsink.read.ShardReader;
import io.mvsink.read.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A subscriber following a bench run's shard from its first append ({@link ShardReader#startToken}), on
 * a thread of its own in the bench's JVM, with a blob store and registry client of its own: what
 * {@code mvsink subscribe} does, without printing. It records when each token was delivered and keeps the
 * changes delivered (the lists the subscription handed over, nothing copied), and sums them per row once it
 * has stopped ({@link #sum}, by each change's Avro binary: {@link RowSums}), so that the bench can check the sum
 * against the workload's model without the check loading the machine while the subscriber is measured (summing as
 * it went, on the subscriber's thread, its lag at the end of a catch-up was 1.0 to 1.5 s against 0.1 to 0.9 s;
 * docs/BENCH.md).
 * A second thread follows the consensus topic alone ({@link ConsensusFollower}) and notes when each
 * seal could first be read (its transaction committed): a seal is sealed from then on, and the
 * subscriber's lag is counted from then. Both wait for the consensus topic to exist (the app creates it).
 */
final class SubscriberProbe implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    /** One delivery: the token's seqno and upper, its changes, and when the listener got them. */
    record Delivery(long seqno, long upper, int changes, long deliveredAtMs) {
    }

    private final MvsinkConfig config;
    private final String subject;
    private final Thread thread;
    private final Thread watcher;
    private final ConsensusFollower sealed;
    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<List<Change>> delivered = new ArrayList<>();
    private volatile boolean stop;
    private volatile long upper;
    private volatile Exception failure;

    private SubscriberProbe(MvsinkConfig config, String subject) {
        this.config = config;
        this.subject = subject;
        this.thread = new Thread(this::follow, "bench-subscriber-" + config.shard());
        thread.setDaemon(true);
        this.sealed = new ConsensusFollower(config.kafkaClientProps(), config.consensusTopic(), config.shard());
        this.watcher = new Thread(this::watch, "bench-seal-watcher-" + config.shard());
        watcher.setDaemon(true);
    }

    /** Starts following the shard of {@code config}, reading rows into the latest schema of {@code subject}. */
    static SubscriberProbe start(MvsinkConfig config, String subject) {
        SubscriberProbe probe = new SubscriberProbe(config, subject);
        probe.watcher.start();
        probe.thread.start();
        return probe;
    }

    private void watch() {
        try (sealed) {
            while (!stop) {
                sealed.poll(POLL);
            }
        } catch (Exception e) {
            failure = e;
        }
    }

    private void follow() {
        try (BlobStore blobs = Wiring.blobs(config); ShardReader reader = open(blobs)) {
            if (reader == null) {
                return;
            }
            Subscription subscription = reader.resume(reader.startToken(), new Subscription.Listener() {
                @Override
                public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
                    seal(rows, token);
                }

                @Override
                public void seal(List<Change> changes, ResumeToken token) {
                    long now = System.currentTimeMillis();
                    delivered.add(changes);
                    synchronized (deliveries) {
                        deliveries.add(new Delivery(token.seqno(), token.upper(), changes.size(), now));
                    }
                    upper = token.upper();
                }
            });
            while (!stop) {
                subscription.poll(POLL);
            }
        } catch (Exception e) {
            failure = e;
        }
    }

    /** The reader, once the consensus topic exists; null if stopped before. */
    private ShardReader open(BlobStore blobs) throws InterruptedException {
        while (!stop) {
            try {
                return ShardReader.open(config.kafkaClientProps(), config.consensusTopic(), config.shard(), blobs,
                    Wiring.registry(config), subject, READ_TIMEOUT);
            } catch (IllegalArgumentException e) {
                // the topic does not exist yet
                Thread.sleep(POLL.toMillis());
            }
        }
        return null;
    }

    /** Waits until the subscriber has delivered every update below {@code target}; false on timeout or failure. */
    boolean awaitUpper(long target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (upper < target && failure == null && thread.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return upper >= target;
    }

    /**
     * Waits until the subscriber has delivered every update below {@code upper} (at most {@code timeout}), stops
     * it, and measures it against the shard's {@code diffs}; its sum is compared with {@code model}.
     */
    SubscriberFigures finish(String run, String phase, long intervalMs, long upper, Duration timeout,
                             List<StateDiff> diffs, Map<String, Long> model) throws InterruptedException {
        boolean caughtUp = awaitUpper(upper, timeout);
        close();
        boolean equal = caughtUp && failure == null && sum().equals(model);
        return SubscriberFigures.of(run, phase, intervalMs, deliveries(), diffs, sealed.sealReadAtMs(), equal, failure);
    }

    /** What was delivered so far, in order. */
    List<Delivery> deliveries() {
        synchronized (deliveries) {
            return List.copyOf(deliveries);
        }
    }

    /**
     * The net count per row of every change delivered, rows with 0 left out (after {@link #close}).
     *
     * @throws IllegalStateException if the subscriber failed, naming why
     */
    Map<String, Long> sum() {
        if (failure != null) {
            throw new IllegalStateException("bench: the subscriber of shard " + config.shard() + " failed: "
                + failure, failure);
        }
        RowSums sums = new RowSums();
        delivered.forEach(changes -> changes.forEach(sums::add));
        return sums.net();
    }

    /** The failure that ended the subscriber, or null. */
    Exception failure() {
        return failure;
    }

    /** Stops the subscriber after its current poll and waits for it. */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join(READ_TIMEOUT.toMillis());
            watcher.join(READ_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
