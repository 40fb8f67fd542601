package io.mvsink.cli;

import io.mvsink.Wiring;
import io.mvsink.blob.BlobStore;
import io.mvsink.config.MvsinkConfig;
import io.mvsink.consensus.ShardPlacement;
import io.mvsink.consensus.ShardState;
import io.mvsink.read.ResumeToken;
import io.mvsink.read.ShardReader;
import io.mvsink.read.Subscription;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "subscribe", description = "Follows a shard: prints a snapshot as of a time (or resumes after a token), "
    + "then each seal's changes in time order, with a token after the snapshot and after each seal: as JSON lines "
    + "{\"row\",\"time\",\"diff\"} and {\"token\":\"<consensus topic>/<shard>/<seqno>:<upper>\"}, or (--format avro) as one Avro object "
    + "container file of Change and Token records. Runs until SIGTERM or Ctrl-C, then exits 0.")
final class SubscribeCommand implements Callable<Integer> {
    /** The output formats: {@link JsonLines} and {@link AvroChanges}. */
    enum Format { json, avro }

    @Spec
    CommandSpec spec;

    @Mixin
    Settings settings;

    @Option(names = "--shard", description = "The shard to follow (default: the configured shard).")
    String shard;

    @Option(names = "--as-of", paramLabel = "T", description = "Print the snapshot with time <= T, then every "
        + "change above T; T must be at or above the shard's since and below its upper (default: everything sealed).")
    Long asOf;

    @Option(names = "--resume", paramLabel = "TOKEN", description = "Continue after a token (a token line or Token "
        + "record) of an earlier run of the same shard (<consensus topic>/<shard>/<seqno>:<upper>): no snapshot, "
        + "every change from the token's upper on; another shard's token is refused. Excludes --as-of.")
    String resume;

    @Option(names = "--subject", description = "The registry subject whose latest schema rows are read into "
        + "(default: the shard's row subject, by value.subject.name.strategy: <corrections.topic>-value unless set otherwise).")
    String subject;

    @Option(names = "--format", paramLabel = "json|avro", defaultValue = "json",
        description = "Output format (default ${DEFAULT-VALUE}): json, a JSON line per change and per token; or avro, "
            + "stdout is one Avro object container file whose records are the union of Change {row: <the subject's "
            + "schema>, time, diff} and Token {token}, flushed after each token (read it with Avro's DataFileStream "
            + "or avro-tools tojson; if the subject gets a newer schema, it exits 1 naming the token to resume from).")
    Format format;

    /** When to stop: the signal handlers set it (tests in one JVM replace it). */
    BooleanSupplier stopped;

    @Override
    public Integer call() {
        if (asOf != null && resume != null) {
            throw new ParameterException(spec.commandLine(), "--as-of and --resume exclude each other: a resume "
                + "continues where its token left off");
        }
        ResumeToken token = resume == null ? null : token(resume);
        MvsinkConfig config = settings.config();
        String name = shard != null ? shard : config.shard();
        String rows = subject != null ? subject : config.rowSubject();
        BooleanSupplier stop = stopped != null ? stopped : Signals.stopOnTermOrInt();
        try (BlobStore blobs = Wiring.blobs(config);
             ShardReader reader = ShardReader.open(config.kafkaClientProps(), config.consensusTopic(), name, blobs,
                 Wiring.registry(config), rows, Duration.ofSeconds(60))) {
            ShardState state = reader.state();
            ShardPlacement.requireLocation(name, state.location(), blobs.location(), MvsinkConfig.BLOB_CONTAINER);
            try (Output out = output(reader, rows)) {
                Subscription subscription = start(reader, state, token, out);
                while (!stop.getAsBoolean()) {
                    subscription.poll(Duration.ofMillis(500));
                }
                System.err.println("subscribe: stopped after token " + subscription.position());
            }
        }
        return ExitCodes.OK;
    }

    /** A subscription's printed form: what it has written is flushed after each token and on close. */
    interface Output extends Subscription.Listener, AutoCloseable {
        @Override
        void close();
    }

    private Output output(ShardReader reader, String subject) {
        if (format == Format.avro) {
            return new AvroChanges(System.out, subject, reader.rowSchema());
        }
        return new JsonLines(System.out);
    }

    private Subscription start(ShardReader reader, ShardState state, ResumeToken token, Subscription.Listener out) {
        try {
            if (token != null) {
                return reader.resume(token, out);
            }
            if (asOf != null) {
                return reader.subscribe(SnapshotCommand.asOf(state, asOf), out);
            }
            // an empty shard: follow it from its first append
            return state.seqno() == 0 ? reader.resume(reader.startToken(), out) : reader.subscribe(state.upper() - 1, out);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((token != null ? "--resume: " : "") + e.getMessage(), e);
        }
    }

    private ResumeToken token(String text) {
        try {
            return ResumeToken.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--resume: " + e.getMessage());
        }
    }

    /** Stops on SIGTERM or SIGINT: the loop ends after the seal it is printing and the JVM exits 0. */
    static final class Signals {
        private Signals() {
        }

        @SuppressWarnings("restriction")
        static BooleanSupplier stopOnTermOrInt() {
            AtomicBoolean stop = new AtomicBoolean();
            for (String name : new String[] {"TERM", "INT"}) {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> stop.set(true));
            }
            return stop::get;
        }
    }
}
