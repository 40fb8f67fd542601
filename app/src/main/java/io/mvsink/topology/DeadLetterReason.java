package io.mvsink.topology;

/** The reasons a record is dead-lettered, as written to the {@code mvsink.dlq.reason} header. */
final class DeadLetterReason {
    static final String BAD_MAGIC = "bad-magic";
    static final String UNDECODABLE = "undecodable";
    static final String UNKNOWN_SCHEMA = "unknown-schema";
    static final String BAD_DIFF = "bad-diff";
    static final String DIFF_OVERFLOW = "diff-overflow";
    static final String BAD_UPPER = "bad-upper";
    static final String MISSING_UPPER = "missing-upper";
    static final String UPPER_ON_UPDATE = "upper-on-update";
    static final String FRONTIER_REGRESSED = "frontier-regressed";
    static final String BAD_TIMESTAMP = "bad-timestamp";

    private DeadLetterReason() {
    }
}
