package io.mvsink.topology;

import java.util.List;

/** The reasons a record is dead-lettered, as written to the {@code mvsink.dlq.reason} header. */
public final class DeadLetterReason {
    static final String TOO_SHORT = "too-short";
    static final String BAD_MAGIC = "bad-magic";
    static final String UNDECODABLE = "undecodable";
    static final String UNKNOWN_SCHEMA = "unknown-schema";
    static final String INCOMPATIBLE_SCHEMA = "incompatible-schema";
    static final String OVERSIZED_ROW = "oversized-row";
    static final String BAD_DIFF = "bad-diff";
    static final String BAD_UPPER = "bad-upper";
    static final String MISSING_UPPER = "missing-upper";
    static final String UPPER_ON_UPDATE = "upper-on-update";
    static final String FRONTIER_REGRESSED = "frontier-regressed";
    static final String BAD_TIMESTAMP = "bad-timestamp";

    /** Every reason, each counted on its own. */
    public static final List<String> ALL = List.of(TOO_SHORT, BAD_MAGIC, UNDECODABLE, UNKNOWN_SCHEMA,
        INCOMPATIBLE_SCHEMA, OVERSIZED_ROW, BAD_DIFF, BAD_UPPER, MISSING_UPPER, UPPER_ON_UPDATE,
        FRONTIER_REGRESSED, BAD_TIMESTAMP);

    private DeadLetterReason() {
    }
}
