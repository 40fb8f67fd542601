package io.mvsink.topology;

/** What one input record is: an update, a progress promise, or bad input with its reason. */
sealed interface Decoded {

    /** An update {@code (row, time, diff)}; {@code row} is Avro binary written with {@code schemaId}. */
    record UpdateRecord(long time, int schemaId, byte[] row, long diff) implements Decoded {
    }

    /** A promise that no update with {@code time < upper} will follow on this partition. */
    record Progress(long upper) implements Decoded {
    }

    /** Bad input: dead-lettered with {@code reason} (a short machine word) and a human {@code detail}. */
    record Bad(String reason, String detail) implements Decoded {
    }
}
