package io.mvsink.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.streams.StreamsConfig;

import static org.apache.kafka.common.config.ConfigDef.Range.atLeast;
import static org.apache.kafka.common.config.ConfigDef.Range.between;

/**
 * Every mvsink option, declared once: name, type, default, validator, documentation and
 * importance. Options prefixed {@code streams.} are handed to Kafka Streams (and its clients)
 * unprefixed. Cross-field rules are checked in the constructor; a bad value fails with the
 * option's name and the reason.
 */
public final class MvsinkConfig extends AbstractConfig {

    public static final String APPLICATION_ID = "application.id";
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String CORRECTIONS_TOPIC = "corrections.topic";
    public static final String SHARD_NAME = "shard.name";
    public static final String REPORTS_TOPIC = "reports.topic";
    public static final String CONSENSUS_TOPIC = "consensus.topic";
    public static final String DEAD_LETTER_TOPIC = "dead.letter.topic";
    public static final String TOPICS_REPLICATION_FACTOR = "topics.replication.factor";
    public static final String TOPICS_MIN_INSYNC_REPLICAS = "topics.min.insync.replicas";
    public static final String BATCH_INTERVAL_MS = "batch.interval.ms";
    public static final String COALESCING_MODE = "coalescing.mode";
    public static final String NUM_STREAM_THREADS = "num.stream.threads";
    public static final String STATE_DIR = "state.dir";
    public static final String ROCKSDB_MEMORY_BYTES = "rocksdb.memory.bytes";
    public static final String PUNCTUATE_INTERVAL_MS = "punctuate.interval.ms";
    public static final String BLOB_CONNECTION_STRING = "blob.connection.string";
    public static final String BLOB_ENDPOINT = "blob.endpoint";
    public static final String BLOB_SAS_TOKEN = "blob.sas.token";
    public static final String BLOB_AUTH = "blob.auth";
    public static final String BLOB_CONTAINER = "blob.container";
    public static final String BLOB_PREFIX = "blob.prefix";
    public static final String BLOB_TARGET_BYTES = "blob.target.bytes";
    public static final String RANGE_TARGET_BYTES = "range.target.bytes";
    public static final String BLOB_CODEC = "blob.codec";
    public static final String BLOB_MAX_ATTEMPTS = "blob.max.attempts";
    public static final String BUILDER_THREADS = "builder.threads";
    public static final String BUILDER_MAX_QUEUED_BYTES = "builder.max.queued.bytes";
    public static final String BARRIER_TIMEOUT_MS = "barrier.timeout.ms";
    public static final String BEST_EFFORT_LINGER_MS = "best.effort.linger.ms";
    public static final String RECONTRIBUTE_TIMEOUT_MS = "recontribute.timeout.ms";
    public static final String REGISTRY_URL = "schema.registry.url";
    public static final String REGISTRY_BASIC_AUTH = "schema.registry.basic.auth.user.info";
    public static final String REGISTRY_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String VALUE_SUBJECT_NAME_STRATEGY = "value.subject.name.strategy";
    public static final String ROW_RECORD_NAME = "row.record.name";
    public static final String MAX_ROW_BYTES = "max.row.bytes";
    public static final String REGISTRY_STARTUP_TIMEOUT_MS = "schema.registry.startup.timeout.ms";
    public static final String COMPACTION_ENABLED = "compaction.enabled";
    public static final String COMPACTION_MAX_BATCH_BYTES = "compaction.max.batch.bytes";
    public static final String COMPACTION_SINCE_LAG_MS = "compaction.since.lag.ms";
    public static final String ROLLUP_APPENDS = "consensus.rollup.appends";
    public static final String INLINE_MAX_BYTES = "inline.max.bytes";
    public static final String INLINE_MERGE_BYTES = "inline.merge.bytes";
    public static final String GC_GRACE_MS = "gc.grace.ms";
    public static final String GC_INTERVAL_MS = "gc.interval.ms";
    public static final String HTTP_PORT = "http.port";
    public static final String HEALTH_SEAL_STALL_MS = "health.seal.stall.ms";
    public static final String STREAMS_PREFIX = "streams.";

    /** 256 MiB: {@link #ROCKSDB_MEMORY_BYTES}' default. */
    public static final long ROCKSDB_MEMORY_DEFAULT = 256L * 1024 * 1024;
    /** The smallest RocksDB bound: a 16 MiB cache (8 MiB of memtables) for every store of the app. */
    static final long ROCKSDB_MEMORY_LEAST = 16L * 1024 * 1024;

    public static final String MODE_NONE = "none";
    public static final String MODE_BEST_EFFORT = "best-effort";
    public static final String MODE_BARRIER = "barrier";

    public static final ConfigDef DEFINITION = new ConfigDef()
        .define(APPLICATION_ID, Type.STRING, "mvsink", new NameValidator(), Importance.HIGH,
            "Kafka Streams application id; also the default prefix of the topics mvsink creates.")
        .define(BOOTSTRAP_SERVERS, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
            Importance.HIGH, "Kafka bootstrap servers, host:port[,host:port...].")
        .define(CORRECTIONS_TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
            Importance.HIGH, "The corrections topic to sink (must exist). One corrections topic feeds one shard, "
                + "over the partition count it has at the shard's first append: partitions added later stop the app "
                + "before any seal (and a start over them is refused); sink the grown topic as a new shard.")
        .define(SHARD_NAME, Type.STRING, "", Importance.HIGH,
            "Name of the shard (letters, digits, '.', '_', '-'); empty means the corrections topic's name.")
        .define(REPORTS_TOPIC, Type.STRING, "", Importance.MEDIUM,
            "Topic of batch reports from the tasks to the appender; empty means <application.id>-reports.")
        .define(CONSENSUS_TOPIC, Type.STRING, "", Importance.MEDIUM,
            "Compacted topic of compare-and-append records; empty means <application.id>-consensus.")
        .define(DEAD_LETTER_TOPIC, Type.STRING, "", Importance.MEDIUM,
            "Topic for bad input, with headers that say why; empty means <application.id>-dead-letter.")
        .define(TOPICS_REPLICATION_FACTOR, Type.INT, -1, brokerDefaultOr(Short.MAX_VALUE), Importance.HIGH,
            "Replication factor of the topics mvsink creates (consensus, reports, dead-letter); -1: the broker's "
                + "default.replication.factor. Kafka Streams' replication.factor (its changelog and repartition "
                + "topics) follows it unless " + STREAMS_PREFIX + "replication.factor is set. The consensus topic is "
                + "the shard's only ledger: run 3 in production (at start a WARN names a consensus topic with fewer "
                + "replicas). An existing topic is checked, never changed.")
        .define(TOPICS_MIN_INSYNC_REPLICAS, Type.INT, -1, brokerDefaultOr(Short.MAX_VALUE), Importance.HIGH,
            "min.insync.replicas of the topics mvsink creates and, unless " + STREAMS_PREFIX
                + "topic.min.insync.replicas is set, of Kafka Streams' internal topics; -1: the broker's default. "
                + "mvsink's exactly-once producers write with acks=all, so a write needs this many replicas in sync: "
                + "run 2 with 3 replicas in production (at start a WARN names a consensus topic below 2). At most "
                + TOPICS_REPLICATION_FACTOR + ".")
        .define(BATCH_INTERVAL_MS, Type.LONG, 1000L, between(1L, 86_400_000L), Importance.HIGH,
            "Width of the interval grid: updates are grouped into batches per [k*interval, (k+1)*interval).")
        .define(COALESCING_MODE, Type.STRING, MODE_BARRIER, ValidString.in(MODE_NONE, MODE_BEST_EFFORT, MODE_BARRIER),
            Importance.HIGH, "How the tasks of one JVM share batches. 'none': each task builds and reports its own "
                + "batch. 'best-effort': a task joins the interval's open builder if there is one, else opens one. "
                + "'barrier': the builder waits until every local task of the shard has contributed (or "
                + BARRIER_TIMEOUT_MS + " passes), so a JVM delivers one batch per interval.")
        .define(BARRIER_TIMEOUT_MS, Type.LONG, 2000L, between(1L, 600_000L), Importance.MEDIUM,
            "In barrier mode, how long a shared builder waits for the local tasks that have not contributed.")
        .define(BEST_EFFORT_LINGER_MS, Type.LONG, 250L, between(0L, 60_000L), Importance.LOW,
            "In best-effort mode, how long a shared builder whose work has drained stays open for more tasks "
                + "to join (0: it closes at once). Checked on the tasks' punctuations.")
        .define(RECONTRIBUTE_TIMEOUT_MS, Type.LONG, 60_000L, between(100L, 86_400_000L), Importance.MEDIUM,
            "A contribution not sealed this long after it was handed off is contributed again (its shared batch "
                + "may have been lost with another task's aborted transaction).")
        .define(NUM_STREAM_THREADS, Type.INT, 1, between(1, 256), Importance.HIGH,
            "Kafka Streams stream threads (workers) for the corrections tasks in this JVM; mvsink starts one more, "
                + "for the appender's task, which has a thread of its own when this is at least the instance's share of "
                + "the corrections topic's partitions.")
        .define(STATE_DIR, Type.STRING, "", Importance.MEDIUM,
            "Directory of the RocksDB state stores; empty means Kafka Streams' default.")
        .define(ROCKSDB_MEMORY_BYTES, Type.LONG, ROCKSDB_MEMORY_DEFAULT, new RocksMemoryValidator(), Importance.HIGH,
            "Off-heap memory of all the app's RocksDB stores together: one block cache of this size, shared by "
                + "every store, with their memtables charged to it (up to half of it). 0: no bound, each store "
                + "with Kafka Streams' defaults (a 50 MiB block cache and up to 3 x 16 MiB memtables per store, "
                + "3 stores per corrections partition and 2 more). Leave room for it outside the heap (docker/README.md, "
                + "Memory). Not with streams.rocksdb.config.setter.")
        .define(PUNCTUATE_INTERVAL_MS, Type.LONG, 100L, between(10L, 60_000L), Importance.LOW,
            "How often a task looks for finished batches and newly sealed uppers (wall clock).")
        .define(BLOB_CONNECTION_STRING, Type.PASSWORD, "", Importance.HIGH,
            "Azure Storage connection string of the account that holds the parts. One of four ways to reach "
                + "storage: this, or " + BLOB_ENDPOINT + " with " + BLOB_SAS_TOKEN + ", or " + BLOB_ENDPOINT + " with "
                + BLOB_AUTH + "=" + BlobAccess.AUTH_ENTRA + " (only one of these), or, when none "
                + "is set, the environment's " + BlobAccess.ENV_CONNECTION_STRING + ", or " + BlobAccess.ENV_ACCOUNT + " with "
                + BlobAccess.ENV_KEY + " (and " + BLOB_ENDPOINT + ", or the default https://<account>.blob.core.windows.net).")
        .define(BLOB_ENDPOINT, Type.STRING, "", Importance.HIGH,
            "Blob service endpoint of the account, e.g. https://acct.blob.core.windows.net or Azurite's "
                + "http://127.0.0.1:10000/devstoreaccount1; with " + BLOB_SAS_TOKEN + ", with " + BLOB_AUTH + "="
                + BlobAccess.AUTH_ENTRA + " (https only) or with " + BlobAccess.ENV_ACCOUNT + " and "
                + BlobAccess.ENV_KEY + ".")
        .define(BLOB_SAS_TOKEN, Type.PASSWORD, "", Importance.HIGH,
            "SAS token (without the leading '?') for " + BLOB_ENDPOINT + "; the container must exist, since a "
                + "container SAS cannot create it.")
        .define(BLOB_AUTH, Type.STRING, BlobAccess.AUTH_SECRET, ValidString.in(BlobAccess.AUTH_SECRET,
                BlobAccess.AUTH_ENTRA), Importance.HIGH,
            "How mvsink authenticates to blob storage. '" + BlobAccess.AUTH_SECRET + "': with the connection string, "
                + "account key or SAS token of the other blob options or the environment. '" + BlobAccess.AUTH_ENTRA
                + "': with a Microsoft Entra ID token from the Azure SDK's DefaultAzureCredential (managed identity, "
                + "AKS workload identity, or AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET, read from the "
                + "environment by the SDK) at " + BLOB_ENDPOINT + ", which must be https; no secret option goes with "
                + "it. The identity needs the role Storage Blob Data Contributor, and the container must exist.")
        .define(BLOB_CONTAINER, Type.STRING, "mvsink", new ContainerValidator(), Importance.HIGH,
            "Blob container of the parts (created if missing). A shard's parts never move: its state records "
                + "the storage account and container, and an app or snapshot pointed at another is refused, "
                + "naming both.")
        .define(BLOB_PREFIX, Type.STRING, "", new PrefixValidator(), Importance.LOW,
            "Key prefix of every part; empty means <shard>/. Must end with '/', so that it is never the "
                + "start of another shard's prefix. Every part also carries its owner (the Kafka cluster id, "
                + "the consensus topic and the shard) in its metadata, and the blob GC deletes only its own. "
                + "Changing it later keeps every part readable (each key is complete) but the blob GC lists only "
                + "the current prefix: "
                + "garbage left under the old one is collected only by gc run with the old prefix.")
        .define(BLOB_TARGET_BYTES, Type.LONG, 8L * 1024 * 1024, between(1024L, 1L << 31), Importance.MEDIUM,
            "A part is cut once it holds about this many bytes of encoded updates.")
        .define(RANGE_TARGET_BYTES, Type.LONG, 8L * 1024 * 1024, between(1024L, 1L << 31), Importance.LOW,
            "Behind a backlog a JVM mints each range to cover every interval its tasks closed since the last "
                + "one, cut at a grid point once the tasks' buffered bytes in it reach about this many, so that "
                + "one range makes about one part (keep it near blob.target.bytes) and a contribution's heap stays "
                + "bounded.")
        .define(BLOB_CODEC, Type.STRING, "deflate", ValidString.in("null", "deflate", "snappy", "zstandard"),
            Importance.LOW, "Avro container compression codec of the parts.")
        .define(BLOB_MAX_ATTEMPTS, Type.INT, 5, between(1, 100), Importance.LOW,
            "Attempts per blob write before its batch fails and is contributed again.")
        .define(BUILDER_THREADS, Type.INT, 2, between(1, 64), Importance.LOW,
            "Threads that encode parts and write them to blob storage.")
        .define(BUILDER_MAX_QUEUED_BYTES, Type.LONG, 64L * 1024 * 1024, atLeast(1024L), Importance.LOW,
            "Bytes of contributions waiting for a builder thread at most; beyond, tasks keep them and offer later. "
                + "Tasks hand ranges over in chunks of 1 MiB or an eighth of this, whichever is less, so this bounds "
                + "the heap that contributions take however large a range is.")
        .define(REGISTRY_URL, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
            Importance.HIGH, "Base URL of the Confluent-compatible schema registry API.")
        .define(REGISTRY_BASIC_AUTH, Type.PASSWORD, "", Importance.MEDIUM,
            "user:password for the registry's basic auth; empty means none.")
        .define(REGISTRY_TIMEOUT_MS, Type.INT, 10_000, between(100, 600_000), Importance.LOW,
            "Timeout of one registry request.")
        .define(REGISTRY_STARTUP_TIMEOUT_MS, Type.LONG, 60_000L, between(0L, 3_600_000L), Importance.LOW,
            "At start, how long to wait for the schema registry to answer before giving up with an error "
                + "(0: try once).")
        .define(VALUE_SUBJECT_NAME_STRATEGY, Type.STRING, SubjectNameStrategy.TOPIC_NAME.className(),
            new SubjectNameStrategy.Validator(), Importance.HIGH,
            "The producers' naming strategy of the rows' registry subject, as Confluent's serializers take it: "
                + "TopicNameStrategy names it <corrections.topic>-value, RecordNameStrategy <" + ROW_RECORD_NAME
                + ">, TopicRecordNameStrategy <corrections.topic>-<" + ROW_RECORD_NAME + ">. A row is accepted iff "
                + "its schema id is a version of that subject, whatever text the producer registered; snapshot "
                + "and subscribe read rows into its latest version, and produce registers there.")
        .define(ROW_RECORD_NAME, Type.STRING, "", new SubjectNameStrategy.RecordNameValidator(), Importance.HIGH,
            "Full name (namespace.name) of the rows' Avro record, e.g. io.example.Row: required with "
                + "RecordNameStrategy and TopicRecordNameStrategy, which name the subject after it; refused "
                + "with TopicNameStrategy, which does not.")
        .define(MAX_ROW_BYTES, Type.INT, 1024 * 1024, between(16, Integer.MAX_VALUE), Importance.MEDIUM,
            "Largest Avro row (value bytes after the 5-byte wire-format header) accepted; larger rows are "
                + "dead-lettered with reason oversized-row.")
        .define(COMPACTION_ENABLED, Type.BOOLEAN, true, Importance.MEDIUM,
            "Merge adjacent sealed batches into larger ones in the background, so that the live batches of a "
                + "shard stay logarithmic in its appends (see docs/ARCHITECTURE.md, Bounded state).")
        .define(COMPACTION_MAX_BATCH_BYTES, Type.LONG, 32L * 1024 * 1024, atLeast(1024L), Importance.LOW,
            "Compaction never merges batches whose parts hold more than this many bytes together (a merge "
                + "holds them in memory).")
        .define(COMPACTION_SINCE_LAG_MS, Type.LONG, -1L, atLeast(-1L), Importance.MEDIUM,
            "How far below the sealed upper snapshots can read: since follows upper - lag (on the grid), and "
                + "compaction advances older times to since, so a row's updates consolidate. -1: keep every time "
                + "(since stays 0).")
        .define(INLINE_MAX_BYTES, Type.INT, 4096, between(0, 65_536), Importance.MEDIUM,
            "A batch whose encoded updates total at most this many bytes is stored inline in its consensus "
                + "record instead of as blobs (no blob write); 0 turns it off. Needs compaction (off when "
                + "compaction.enabled=false): merges move inline data into blobs.")
        .define(INLINE_MERGE_BYTES, Type.INT, 131_072, between(1_024, 524_288), Importance.LOW,
            "Compaction leaves the newest inline batches alone until they hold this many bytes together, "
                + "then merges them into blobs: it bounds the inline data a shard's state (and so its rollup "
                + "record, which must fit the consensus topic's max.message.bytes) holds at once.")
        .define(ROLLUP_APPENDS, Type.INT, 100, between(2, 1_000_000), Importance.LOW,
            "Every this many appends the appender writes the shard's full state as a rollup record and "
                + "tombstones the diffs it covers, so the compacted consensus topic stays bounded.")
        .define(GC_GRACE_MS, Type.LONG, 600_000L, between(1_000L, 30L * 86_400_000L), Importance.MEDIUM,
            "Blob garbage collection never deletes a blob younger than this, nor one that compaction "
                + "unreferenced less than this ago (a reader of an earlier state may still open it); the "
                + "appender never seals a batch closed more than half of it ago. The appender records it as the "
                + "shard's grace in the consensus topic, and every GC of the shard (in an app or the gc command) "
                + "waits at least the recorded one; instances of a shard should run one value (a change is "
                + "logged; a lowered grace applies at once, a raised one to batches written after it).")
        .define(GC_INTERVAL_MS, Type.LONG, 300_000L, between(0L, 7L * 86_400_000L), Importance.LOW,
            "How often an app runs blob garbage collection by itself (0: never; the gc command runs it "
                + "by hand).")
        .define(HTTP_PORT, Type.INT, 0, between(0, 65_535), Importance.MEDIUM,
            "Port of run's HTTP endpoint for health checks (GET /health: stream threads running and seals "
                + "advancing; GET /health/live: stream threads only), on every interface; 0 turns it off. "
                + "The health command asks it.")
        .define(HEALTH_SEAL_STALL_MS, Type.LONG, 600_000L, between(1_000L, 7L * 86_400_000L), Importance.LOW,
            "GET /health says DOWN when a local task has closed input above the shard's sealed upper and the "
                + "sealed upper has not risen for this long (idle input never counts as a stall).");

    /**
     * Checks and holds {@code props}.
     *
     * @throws ConfigException naming every option at fault: first each option on its own (unknown
     *     names with the nearest known one, bad values, missing required options, {@link OptionCheck}),
     *     all at once; when those are all right, every rule across options at once
     */
    public MvsinkConfig(Map<?, ?> props) {
        super(DEFINITION, checked(props), false);
        ConfigErrors errors = new ConfigErrors();
        validateCrossFields(errors);
        errors.throwIfAny();
    }

    private static Map<?, ?> checked(Map<?, ?> props) {
        ConfigErrors errors = new ConfigErrors();
        OptionCheck.errors(props).forEach(errors::add);
        OptionCheck.missing(props).forEach(errors::add);
        errors.throwIfAny();
        return props;
    }

    public static MvsinkConfig fromProperties(Properties properties) {
        return new MvsinkConfig(properties);
    }

    public String applicationId() {
        return getString(APPLICATION_ID);
    }

    public String correctionsTopic() {
        return getString(CORRECTIONS_TOPIC);
    }

    public String shard() {
        String name = getString(SHARD_NAME);
        return name.isEmpty() ? correctionsTopic() : name;
    }

    /** The naming strategy of {@link #rowSubject()}. */
    public SubjectNameStrategy subjectNameStrategy() {
        return SubjectNameStrategy.named(getString(VALUE_SUBJECT_NAME_STRATEGY)).orElseThrow();
    }

    /**
     * The registry subject of the shard's rows, by {@link #VALUE_SUBJECT_NAME_STRATEGY}: a row
     * belongs to the shard iff its schema id is a version of it, and readers read rows into its
     * latest version.
     */
    public String rowSubject() {
        return subjectNameStrategy().subject(correctionsTopic(), getString(ROW_RECORD_NAME));
    }

    public String reportsTopic() {
        return orDefault(REPORTS_TOPIC, applicationId() + "-reports");
    }

    public String consensusTopic() {
        return orDefault(CONSENSUS_TOPIC, applicationId() + "-consensus");
    }

    public String deadLetterTopic() {
        return orDefault(DEAD_LETTER_TOPIC, applicationId() + "-dead-letter");
    }

    public String blobPrefix() {
        return orDefault(BLOB_PREFIX, shard() + "/");
    }

    /** The inline limit in effect: {@link #INLINE_MAX_BYTES}, or 0 when compaction is off (nothing would move it out). */
    public long inlineMaxBytes() {
        return getBoolean(COMPACTION_ENABLED) ? getInt(INLINE_MAX_BYTES) : 0;
    }

    public long batchIntervalMs() {
        return getLong(BATCH_INTERVAL_MS);
    }

    public Password blobConnectionString() {
        return getPassword(BLOB_CONNECTION_STRING);
    }

    /**
     * How to reach blob storage: the options and the account credentials in {@code env}, by the rule
     * of {@link BlobAccess#resolve}. Called once at start by the wiring, which reads the environment.
     *
     * @throws ConfigException naming the options and variables at fault, never their values
     */
    public BlobAccess blobAccess(Map<String, String> env) {
        return BlobAccess.resolve(blobConnectionString().value(), getString(BLOB_ENDPOINT),
            getPassword(BLOB_SAS_TOKEN).value(), getString(BLOB_AUTH), env);
    }

    /**
     * Settings for mvsink's own Kafka clients (admin, the producer helper, the consensus reader):
     * bootstrap servers plus every {@code streams.}-prefixed option that is a common client
     * setting, so that security settings ({@code streams.security.protocol}, {@code streams.sasl.*},
     * {@code streams.ssl.*}) reach them as they reach Kafka Streams.
     */
    public Map<String, Object> kafkaClientProps() {
        Map<String, Object> props = new HashMap<>(streamsOverrides());
        props.keySet().retainAll(AdminClientConfig.configNames());
        props.put(BOOTSTRAP_SERVERS, getString(BOOTSTRAP_SERVERS));
        return props;
    }

    /** Options prefixed {@code streams.}, unprefixed, for Kafka Streams and its clients. */
    public Map<String, Object> streamsOverrides() {
        return originalsWithPrefix(STREAMS_PREFIX);
    }

    private String orDefault(String key, String fallback) {
        String value = getString(key);
        return value.isEmpty() ? fallback : value;
    }

    private void validateCrossFields(ConfigErrors errors) {
        errors.check(() -> {
            if (!NameValidator.isName(shard())) {
                throw new ConfigException(SHARD_NAME, shard(), "must be letters, digits, '.', '_' or '-' "
                    + "(it is also the default shard name taken from " + CORRECTIONS_TOPIC + ")");
            }
        });
        errors.check(() -> {
            if (!NameValidator.isName(consensusTopic())) {
                throw new ConfigException(CONSENSUS_TOPIC, consensusTopic(), "must be letters, digits, '.', '_' or '-' "
                    + "(a topic name; it also names the owner of the shard's blobs)");
            }
        });
        errors.check(this::checkProcessingGuarantee);
        errors.check(this::checkRecordName);
        errors.check(() -> BlobAccess.checkOptions(blobConnectionString().value(), getString(BLOB_ENDPOINT),
            getPassword(BLOB_SAS_TOKEN).value(), getString(BLOB_AUTH)));
        errors.check(() -> {
            String auth = getPassword(REGISTRY_BASIC_AUTH).value();
            if (!auth.isEmpty() && auth.indexOf(':') < 1) {
                throw new ConfigException(REGISTRY_BASIC_AUTH, "[hidden]", "must be user:password");
            }
        });
        errors.check(() -> {
            if (reportsTopic().equals(correctionsTopic()) || consensusTopic().equals(correctionsTopic())
                || deadLetterTopic().equals(correctionsTopic())) {
                throw new ConfigException(CORRECTIONS_TOPIC, correctionsTopic(),
                    "must differ from the reports, consensus and dead-letter topics");
            }
        });
        errors.check(this::checkGcGrace);
        errors.check(() -> {
            int replicas = getInt(TOPICS_REPLICATION_FACTOR);
            int insync = getInt(TOPICS_MIN_INSYNC_REPLICAS);
            if (replicas > 0 && insync > replicas) {
                throw new ConfigException(TOPICS_MIN_INSYNC_REPLICAS, insync, "must be at most "
                    + TOPICS_REPLICATION_FACTOR + " (" + replicas + "): no write to the topics would ever succeed");
            }
        });
        errors.check(this::checkRocksDbSetter);
    }

    /** -1 (the broker's default) or 1 to {@code max}. */
    private static ConfigDef.Validator brokerDefaultOr(int max) {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            int n = (Integer) value;
            if (n != -1 && (n < 1 || n > max)) {
                throw new ConfigException(name, value, "must be -1 (the broker's default) or 1 to " + max);
            }
        }, () -> "-1 or [1,...," + max + "]");
    }

    /** The bound is a config setter of its own: a user's setter would replace it, silently. */
    private void checkRocksDbSetter() {
        Object setter = streamsOverrides().get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
        if (setter != null && getLong(ROCKSDB_MEMORY_BYTES) > 0) {
            throw new ConfigException(STREAMS_PREFIX + StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, setter,
                "cannot be set with " + ROCKSDB_MEMORY_BYTES + " > 0 (mvsink's bound is a config setter of its own): "
                + "set " + ROCKSDB_MEMORY_BYTES + "=0 to bound RocksDB's memory in your setter instead");
        }
    }

    private void checkGcGrace() {
        long grace = getLong(GC_GRACE_MS);
        long least = leastGcGraceMs();
        if (grace < least) {
            throw new ConfigException(GC_GRACE_MS, grace, "must be at least " + least + " ms: 4 x (the Kafka "
                + "transaction timeout " + transactionTimeoutMs() + " + " + BARRIER_TIMEOUT_MS + " + "
                + BEST_EFFORT_LINGER_MS + " + " + CLOCK_SKEW_MS + " ms of clock skew), so that the blob GC never "
                + "deletes a part an appender may still seal (docs/ARCHITECTURE.md, Blob garbage collection)");
        }
    }

    /** The record name is set iff the strategy names the subject after it. */
    private void checkRecordName() {
        SubjectNameStrategy strategy = subjectNameStrategy();
        String recordName = getString(ROW_RECORD_NAME);
        if (strategy.needsRecordName() && recordName.isEmpty()) {
            throw new ConfigException(ROW_RECORD_NAME, recordName, "must be set with " + VALUE_SUBJECT_NAME_STRATEGY
                + "=" + getString(VALUE_SUBJECT_NAME_STRATEGY) + ", which names the rows' subject after the row "
                + "record's full name (e.g. io.example.Row)");
        }
        if (!strategy.needsRecordName() && !recordName.isEmpty()) {
            throw new ConfigException(ROW_RECORD_NAME, recordName, "is used only with RecordNameStrategy or "
                + "TopicRecordNameStrategy; with " + VALUE_SUBJECT_NAME_STRATEGY + "=" + strategy.className()
                + " the rows' subject is " + rowSubject() + ": remove it, or set " + VALUE_SUBJECT_NAME_STRATEGY);
        }
    }

    /**
     * mvsink's guarantees (a batch sealed once, a contribution handed off with its offsets) rest on
     * Kafka Streams' exactly-once: a user-set {@code streams.processing.guarantee} must say so.
     */
    private void checkProcessingGuarantee() {
        Object guarantee = streamsOverrides().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (guarantee != null && !StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee.toString().trim())) {
            throw new ConfigException(STREAMS_PREFIX + StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee,
                "mvsink runs only with " + StreamsConfig.EXACTLY_ONCE_V2 + " (its seals and hand-offs rest on exactly-once); remove the "
                + "option or set " + StreamsConfig.EXACTLY_ONCE_V2);
        }
    }

    /** What the blob GC's safety argument allows for clock skew between storage, tasks and the GC. */
    public static final long CLOCK_SKEW_MS = 2_000;

    /**
     * The smallest safe {@code gc.grace.ms}: the GC deletes against a state at most a quarter of the
     * grace old, and an appender may commit a seal up to the transaction timeout after checking its
     * batch's age, whose parts a shared builder may have written up to the barrier timeout (or the
     * best-effort linger) before the batch closed.
     */
    public long leastGcGraceMs() {
        return 4 * (transactionTimeoutMs() + getLong(BARRIER_TIMEOUT_MS) + getLong(BEST_EFFORT_LINGER_MS)
            + CLOCK_SKEW_MS);
    }

    /**
     * The stream threads' transaction timeout: a streams override, else Kafka Streams' exactly-once
     * default (10 s). Its value was checked as an INT by {@link OptionCheck} before this is read.
     */
    public long transactionTimeoutMs() {
        Map<String, Object> streams = streamsOverrides();
        Object value = streams.getOrDefault("producer.transaction.timeout.ms", streams.get("transaction.timeout.ms"));
        return value == null ? 10_000L : Long.parseLong(value.toString().trim());
    }

    /** Names used in keys and topic names: letters, digits, '.', '_' and '-'. */
    static final class NameValidator implements ConfigDef.Validator {
        static boolean isName(String value) {
            return value != null && value.matches("[A-Za-z0-9._-]+");
        }

        @Override
        public void ensureValid(String name, Object value) {
            if (!isName((String) value)) {
                throw new ConfigException(name, value, "must be letters, digits, '.', '_' or '-'");
            }
        }

        @Override
        public String toString() {
            return "[A-Za-z0-9._-]+";
        }
    }

    /** 0 (no bound) or at least {@link #ROCKSDB_MEMORY_LEAST}. */
    static final class RocksMemoryValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            long bytes = (Long) value;
            if (bytes != 0 && bytes < ROCKSDB_MEMORY_LEAST) {
                throw new ConfigException(name, value, "must be 0 (no bound) or at least " + ROCKSDB_MEMORY_LEAST
                    + " (16 MiB)");
            }
        }

        @Override
        public String toString() {
            return "0 or [" + ROCKSDB_MEMORY_LEAST + ",...]";
        }
    }

    /** A custom blob prefix: empty (the default) or ending with '/'. */
    static final class PrefixValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String s = (String) value;
            if (s == null || (!s.isEmpty() && !s.endsWith("/"))) {
                throw new ConfigException(name, value, "must end with '/': a prefix without one is also the "
                    + "start of other prefixes (orders is the start of orders-eu/), whose blobs the shard's "
                    + "gc would list");
            }
        }

        @Override
        public String toString() {
            return "empty or ending with '/'";
        }
    }

    /** Azure container names: 3-63 lowercase letters, digits and single dashes. */
    static final class ContainerValidator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String s = (String) value;
            if (s == null || !s.matches("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]")) {
                throw new ConfigException(name, value, "must be an Azure container name: 3-63 lowercase "
                    + "letters, digits and single dashes, starting and ending with a letter or digit");
            }
        }

        @Override
        public String toString() {
            return "Azure container name";
        }
    }
}
