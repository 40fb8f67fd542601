package io.mvsink.topology;

import io.mvsink.registry.BadWireFormatException;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.UnknownSchemaException;
import io.mvsink.registry.WireFormat;
import io.mvsink.registry.AvroRowCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Time;

import static io.mvsink.topology.DeadLetterReason.*;

/**
 * Reads one record of the corrections topic by the input contract: a value in the Confluent
 * wire format is an update (header {@code mvsink.diff}, default +1, record timestamp = time);
 * a null value with header {@code mvsink.upper} is progress; anything else is {@link Decoded.Bad}:
 * among others a row whose writer schema is not a version of the shard's subject, a row larger
 * than the {@code max.row.bytes} recorded for its schema id (both by {@link SchemaGate}, so that
 * a replay decides them the same) or than a changelog record holds, and an update without a time (marked by
 * {@link InvalidTimestampMarker}).
 * Every row is decoded once with its writer schema, so a row that could not be read back later
 * cannot exist (bounded: a corrupt length cannot make it allocate more than the value's size).
 * Schemas come from the shared registry client, which caches them.
 *
 * <p>A registry that cannot be reached is not bad input: its exception propagates and the
 * record is processed again after the stream thread is replaced.
 */
final class InputDecoder {
    static final String DIFF_HEADER = "mvsink.diff";
    static final String UPPER_HEADER = "mvsink.upper";
    /** A refused writer schema is decided again after this long (a new version may read it). */
    static final long SCHEMA_RECHECK_MS = 60_000;

    private final AvroRowCodec rows;
    private final SchemaGate gate;
    private final int storableRowBytes;

    /** A decoder whose rows any changelog record holds ({@code storableRowBytes} unbounded). */
    InputDecoder(SchemaRegistry registry, String subject, int maxRowBytes, AcceptedSchemas accepted, Time time) {
        this(registry, subject, maxRowBytes, Integer.MAX_VALUE, accepted, time);
    }

    /**
     * {@code accepted}: the task's changelogged schema decisions, restored with its other stores;
     * {@code storableRowBytes}: the largest row a record of the task's changelog holds (the producer's
     * {@code max.request.size} or the shard's topics' {@code max.message.bytes}, whichever is less,
     * less headroom), whatever {@code max.row.bytes} says.
     */
    InputDecoder(SchemaRegistry registry, String subject, int maxRowBytes, int storableRowBytes,
                 AcceptedSchemas accepted, Time time) {
        this.rows = new AvroRowCodec(registry, subject);
        this.gate = new SchemaGate(registry, subject, maxRowBytes, accepted, time, SCHEMA_RECHECK_MS);
        this.storableRowBytes = storableRowBytes;
    }

    Decoded decode(byte[] value, long timestamp, Headers headers) {
        if (value == null) {
            return progress(headers);
        }
        if (last(headers, UPPER_HEADER) != null) {
            return new Decoded.Bad(UPPER_ON_UPDATE, "a record with a value must not carry " + UPPER_HEADER);
        }
        String invalidTimestamp = last(headers, InvalidTimestampMarker.HEADER);
        if (timestamp < 0 || invalidTimestamp != null) {
            return new Decoded.Bad(BAD_TIMESTAMP, "record timestamp "
                + (invalidTimestamp != null ? abbreviate(invalidTimestamp) : timestamp) + " is not an update time");
        }
        Long diff = 1L;
        String diffText = last(headers, DIFF_HEADER);
        if (diffText != null) {
            diff = parseLong(diffText);
            if (diff == null) {
                return new Decoded.Bad(BAD_DIFF, DIFF_HEADER + " is not a decimal long: '" + abbreviate(diffText) + "'");
            }
        }
        int schemaId;
        try {
            schemaId = rows.validate(value);
        } catch (BadWireFormatException e) {
            return new Decoded.Bad(e.reason(), e.getMessage());
        } catch (UnknownSchemaException e) {
            return new Decoded.Bad(UNKNOWN_SCHEMA, "schema id " + WireFormat.schemaId(value) + " is not in the registry");
        }
        SchemaGate.Decision decision = gate.decide(schemaId);
        if (decision.refusal() != null) {
            return new Decoded.Bad(INCOMPATIBLE_SCHEMA, abbreviate(decision.refusal(), 400));
        }
        if (value.length - WireFormat.HEADER_SIZE > decision.maxRowBytes()) {
            return new Decoded.Bad(OVERSIZED_ROW, "row of " + (value.length - WireFormat.HEADER_SIZE)
                + " bytes is larger than max.row.bytes " + decision.maxRowBytes() + " (in force when schema id "
                + schemaId + " was accepted)");
        }
        if (value.length - WireFormat.HEADER_SIZE > storableRowBytes) {
            // buffered, the row would be a changelog record larger than the producer sends: the task
            // would stop at it at every restart
            return new Decoded.Bad(OVERSIZED_ROW, "row of " + (value.length - WireFormat.HEADER_SIZE)
                + " bytes is larger than a record of the task's changelog holds (" + storableRowBytes
                + " bytes: the least of the producer's max.request.size and the max.message.bytes of the shard's"
                + " changelog and dead-letter topics, less headroom; raise streams.producer.max.request.size and"
                + " max.message.bytes on those topics to take it)");
        }
        byte[] row = Arrays.copyOfRange(value, WireFormat.HEADER_SIZE, value.length);
        return new Decoded.UpdateRecord(timestamp, schemaId, row, diff);
    }

    private Decoded progress(Headers headers) {
        String upperText = last(headers, UPPER_HEADER);
        if (upperText == null) {
            return new Decoded.Bad(MISSING_UPPER, "a record without a value must carry " + UPPER_HEADER);
        }
        Long upper = parseLong(upperText);
        if (upper == null || upper < 0) {
            return new Decoded.Bad(BAD_UPPER, UPPER_HEADER + " is not a non-negative decimal long: '"
                + abbreviate(upperText) + "'");
        }
        return new Decoded.Progress(upper);
    }

    private static String last(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        if (header == null) {
            return null;
        }
        return header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static Long parseLong(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String abbreviate(String s) {
        return abbreviate(s, 64);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
