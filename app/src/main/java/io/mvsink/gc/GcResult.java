package io.mvsink.gc;

import java.util.List;

/**
 * What one blob GC run found and did. Every listed blob under the prefix is counted in exactly
 * one of {@code referenced}, {@code retiredProtected}, {@code foreign} (unreferenced, another
 * owner's: never deleted), {@code unowned} (unreferenced, without an owner, not claimed: kept),
 * {@code youngProtected} and {@code candidates}; each candidate the run reached was deleted (or,
 * in a dry run, would have been) or was {@code missing} (already gone when deleted).
 *
 * @param graceMs the grace the run used: its own, or the shard's recorded one if that is larger
 * @param deleted the keys deleted, in key order (in a dry run: the keys it would delete)
 * @param bytesFreed their sizes as listed
 */
public record GcResult(boolean dryRun, long graceMs, int listed, int referenced, int retiredProtected, int foreign, int unowned,
                       int youngProtected, int candidates, List<String> deleted, long bytesFreed, int missing,
                       Outcome outcome) {

    /** How a run ended. */
    public enum Outcome {
        /** Every candidate was handled. */
        COMPLETE,
        /** Stopped deleting: more than a quarter of the grace passed since the state was read. */
        STALE_STATE,
        /** Deleted nothing: the shard has no appends (or the options point at the wrong consensus). */
        NO_APPENDS,
        /**
         * Deleted nothing: the shard has appends but no grace record (its appender runs a version
         * before it, or has not appended since it started): the grace its appenders use is unknown.
         */
        NO_GRACE,
        /** Stopped deleting: the thread was interrupted (the app is closing). */
        INTERRUPTED
    }

    public GcResult {
        deleted = List.copyOf(deleted);
    }

    /** True unless every candidate was handled. */
    public boolean aborted() {
        return outcome != Outcome.COMPLETE;
    }

    /** One line for logs and the command's summary. */
    public String summary() {
        return "grace " + graceMs + " ms, listed " + listed + ", referenced " + referenced + ", retired-protected " + retiredProtected
            + ", other owners' " + foreign + ", unowned kept " + unowned + ", young-protected " + youngProtected
            + ", " + (dryRun ? "would delete " : "deleted ")
            + deleted.size() + " of " + candidates + " unreferenced (" + bytesFreed + " bytes), missing " + missing
            + switch (outcome) {
                case COMPLETE -> "";
                case STALE_STATE -> "; stopped: the state is older than a quarter of the grace (run again)";
                case NO_APPENDS -> "; deleted nothing: the shard has no appends (wrong application.id or "
                    + "consensus.topic? a live shard's parts would look unreferenced)";
                case NO_GRACE -> "; deleted nothing: the shard has not recorded its grace yet (its appender "
                    + "runs an earlier version, or has not appended since it started)";
                case INTERRUPTED -> "; stopped: interrupted";
            };
    }

    /** The classification of a run, before any deletion. */
    record Tally(boolean dryRun, long graceMs, int listed, int referenced, int retiredProtected, int foreign, int unowned,
                 int youngProtected, int candidates) {
        GcResult finish(List<String> deleted, long bytesFreed, int missing, Outcome outcome) {
            return new GcResult(dryRun, graceMs, listed, referenced, retiredProtected, foreign, unowned, youngProtected,
                candidates, deleted, bytesFreed, missing, outcome);
        }
    }
}
