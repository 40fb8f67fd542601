package io.mvsink.topology;

/** Names of the topology's state stores and nodes. */
final class StoreNames {
    static final String BUFFER = "mvsink-correction-buffer";
    static final String PROGRESS = "mvsink-task-progress";
    /** Per task: accepted writer schema ids with their row limit ({@link AcceptedSchemas}). */
    static final String SCHEMA_DECISIONS = "mvsink-schema-decisions";
    static final String APPENDER = "mvsink-appender";
    static final String CONSENSUS = "mvsink-consensus-mirror";

    static final String CORRECTIONS_SOURCE = "corrections-source";
    static final String CORRECTIONS = "correction-buffer";
    static final String REPORTS_SINK = "reports-sink";
    static final String DEAD_LETTER_SINK = "dead-letter-sink";
    static final String REPORTS_SOURCE = "reports-source";
    static final String APPENDER_NODE = "appender";
    static final String CONSENSUS_SINK = "consensus-sink";
    static final String CONSENSUS_SOURCE = "consensus-source";
    static final String CONSENSUS_MIRROR = "consensus-mirror";

    private StoreNames() {
    }
}
