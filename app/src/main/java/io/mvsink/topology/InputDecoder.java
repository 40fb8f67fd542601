package io.mvsink.topology;

import io.mvsink.registry.BadWireFormatException;
import io.mvsink.registry.SchemaRegistry;
import io.mvsink.registry.UnknownSchemaException;
import io.mvsink.registry.WireFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import static io.mvsink.topology.DeadLetterReason.*;

/**
 * Reads one record of the corrections topic by the input contract: a value in the Confluent
 * wire format is an update (header {@code mvsink.diff}, default +1, record timestamp = time);
 * a null value with header {@code mvsink.upper} is progress; anything else is {@link Decoded.Bad}.
 * Every row is decoded once with its writer schema, so a record that is dead-lettered later
 * cannot exist. One decoder per task (not thread-safe); schemas come from the shared registry
 * client, which caches them.
 *
 * <p>A registry that cannot be reached is not bad input: its exception propagates and the
 * record is processed again after the stream thread is replaced.
 */
final class InputDecoder {
    static final String DIFF_HEADER = "mvsink.diff";
    static final String UPPER_HEADER = "mvsink.upper";

    private final SchemaRegistry registry;
    private final Map<Integer, GenericDatumReader<Object>> readers = new HashMap<>();
    private BinaryDecoder decoder;
    private Object reuse;

    InputDecoder(SchemaRegistry registry) {
        this.registry = registry;
    }

    Decoded decode(byte[] value, long timestamp, Headers headers) {
        if (value == null) {
            return progress(headers);
        }
        if (last(headers, UPPER_HEADER) != null) {
            return new Decoded.Bad(UPPER_ON_UPDATE, "a record with a value must not carry " + UPPER_HEADER);
        }
        if (timestamp < 0) {
            return new Decoded.Bad(BAD_TIMESTAMP, "record timestamp " + timestamp + " is not an update time");
        }
        Long diff = 1L;
        String diffText = last(headers, DIFF_HEADER);
        if (diffText != null) {
            diff = parseLong(diffText);
            if (diff == null) {
                return new Decoded.Bad(BAD_DIFF, DIFF_HEADER + " is not a decimal long: '" + abbreviate(diffText) + "'");
            }
        }
        WireFormat.Framed framed;
        try {
            framed = WireFormat.decode(value);
        } catch (BadWireFormatException e) {
            return new Decoded.Bad(BAD_MAGIC, e.getMessage());
        }
        GenericDatumReader<Object> reader;
        try {
            reader = readers.computeIfAbsent(framed.schemaId(), this::readerFor);
        } catch (UnknownSchemaException e) {
            return new Decoded.Bad(UNKNOWN_SCHEMA, "schema id " + framed.schemaId() + " is not in the registry");
        }
        String problem = undecodable(reader, framed.avro());
        if (problem != null) {
            return new Decoded.Bad(UNDECODABLE, "row does not decode with schema id " + framed.schemaId() + ": " + problem);
        }
        return new Decoded.UpdateRecord(timestamp, framed.schemaId(), framed.avro(), diff);
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

    private GenericDatumReader<Object> readerFor(int schemaId) {
        Schema schema = registry.schemaById(schemaId);
        return new GenericDatumReader<>(schema);
    }

    /** Null if {@code avro} is exactly one datum of the reader's schema, else what is wrong. */
    private String undecodable(GenericDatumReader<Object> reader, byte[] avro) {
        decoder = DecoderFactory.get().binaryDecoder(avro, decoder);
        try {
            reuse = reader.read(reuse, decoder);
            return decoder.isEnd() ? null : "trailing bytes after the row";
        } catch (IOException | RuntimeException e) {
            reuse = null;
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + abbreviate(e.getMessage()));
        }
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
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
