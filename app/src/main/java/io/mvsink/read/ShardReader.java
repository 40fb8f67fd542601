package io.mvsink.read;

import io.mvsink.blob.BlobNotFoundException;
import io.mvsink.blob.BlobStore;
import io.mvsink.consensus.ShardFollower;
import io.mvsink.consensus.ShardState;
import io.mvsink.registry.SchemaRegistry;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shard opened for reading: its state rebuilt from the consensus topic alone, its parts read
 * into the latest schema of its subject. Read a snapshot as of a time, or subscribe: a snapshot as
 * of a time, then each later seal's updates with a {@link ResumeToken} after each; or resume from
 * a token. One subscription per reader (it follows the topic with the reader's one consumer).
 *
 * <pre>{@code
 * try (ShardReader shard = ShardReader.open(clientProps, "orders-app-consensus", "orders",
 *         blobs, registry, "orders-value", Duration.ofSeconds(60))) {
 *     Subscription sub = shard.subscribe(shard.state().upper() - 1, listener);
 *     while (running) {
 *         sub.poll(Duration.ofSeconds(1));   // calls listener.seal(changes, token) per seal
 *     }
 * }
 * }</pre>
 */
public final class ShardReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardReader.class);
    /** A key no part has (parts are named under the shard's prefix, with a batch id). */
    static final String NO_PART = "mvsink-reader-connect/no-such-part";

    private final ShardFollower follower;
    private final SnapshotReader parts;
    private final Duration timeout;
    private Subscription subscription;

    private ShardReader(ShardFollower follower, SnapshotReader parts, Duration timeout) {
        this.follower = follower;
        this.parts = parts;
        this.timeout = timeout;
    }

    /**
     * Reads {@code shard}'s state from {@code consensusTopic} to its current end; its parts are in
     * {@code blobs} and read into the latest schema of {@code subject}. {@code timeout} bounds each
     * read of the topic to its end. Then it opens its connections to the registry and the blob store
     * ({@link #connect}), so that the first read does not wait for them.
     */
    public static ShardReader open(Map<String, Object> clientProps, String consensusTopic, String shard,
                                   BlobStore blobs, SchemaRegistry registry, String subject, Duration timeout) {
        ShardReader reader = of(ShardFollower.open(clientProps, consensusTopic, shard, timeout), blobs, registry,
            subject, timeout);
        connect(blobs, registry, subject);
        return reader;
    }

    /**
     * Asks the registry for the subject's latest version and the blob store for a blob no part is ever named (it
     * answers "not found"): the first read of a subscriber that starts before the shard's first seal would
     * otherwise pay for both connections, and the code that reads an answer, when the seal comes. An answer that
     * is an error (the subject not registered yet, the store refusing) is left for the reads to report, as they
     * would without this.
     */
    static void connect(BlobStore blobs, SchemaRegistry registry, String subject) {
        try {
            registry.latest(subject);
        } catch (RuntimeException e) {
            LOG.debug("reader: the registry's latest version of {} not read at open: {}", subject, e.toString());
        }
        try {
            blobs.get(NO_PART);
        } catch (BlobNotFoundException expected) {
            // the store answered
        } catch (RuntimeException e) {
            LOG.debug("reader: the blob store's answer at open was not 'not found': {}", e.toString());
        }
    }

    /** A reader of the shard {@code follower} follows (it closes the follower). */
    public static ShardReader of(ShardFollower follower, BlobStore blobs, SchemaRegistry registry, String subject,
                                 Duration timeout) {
        return new ShardReader(follower, new SnapshotReader(blobs, registry, subject), timeout);
    }

    /** The shard's state as of the last read of the topic. */
    public ShardState state() {
        return follower.state();
    }

    /** The latest schema of the rows' subject now: what the next read reads rows (and {@link Change#record}s) into. */
    public Schema rowSchema() {
        return parts.rowSchema();
    }

    /** As {@link SnapshotReader#read}: net count per row of every update with {@code time <= asOf}. */
    public Map<String, Long> snapshot(long asOf) {
        return parts.read(follower.state(), asOf);
    }

    /**
     * Delivers the snapshot as of {@code asOf} to {@code listener}, then every seal of the state read
     * so far above it (as one catch-up step); {@link Subscription#poll} delivers the later seals.
     *
     * @throws IllegalArgumentException as {@link SnapshotReader#read} if the shard cannot be read as of {@code asOf}
     */
    public Subscription subscribe(long asOf, Subscription.Listener listener) {
        Subscription started = start(listener);
        started.start(asOf);
        return started;
    }

    /**
     * Continues after {@code token}: every update from its upper on, the seals already appended as one
     * catch-up step, then the later seals as {@link Subscription#poll} reads them.
     *
     * @throws IllegalArgumentException as {@link ResumeToken#requireReadable} (another shard's or consensus topic's
     *     token, ahead of the shard, below the since)
     */
    public Subscription resume(ResumeToken token, Subscription.Listener listener) {
        Subscription started = start(listener);
        started.resume(token);
        return started;
    }

    /** The token before this shard's first append: a resume from it delivers every update the shard holds. */
    public ResumeToken startToken() {
        return ResumeToken.start(follower.topic(), state().shard());
    }

    private Subscription start(Subscription.Listener listener) {
        if (subscription != null) {
            throw new IllegalStateException("shard " + state().shard() + ": one subscription per reader");
        }
        subscription = new Subscription(follower, parts, listener, timeout);
        return subscription;
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
        follower.close();
    }
}
