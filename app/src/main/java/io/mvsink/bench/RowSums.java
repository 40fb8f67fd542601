package io.mvsink.bench;

import io.mvsink.read.Change;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The net diff per row of the changes a subscriber was handed, keyed by the schema each row was read into and the
 * row's Avro binary in it ({@link Change#rowBytes}, which a subscription's change carries), with one record per row to
 * render at the end. Not thread-safe.
 */
final class RowSums {
    private final Map<Schema, Map<ByteBuffer, Net>> sums = new HashMap<>();
    private Map<ByteBuffer, Net> ofSchema;
    private Schema schema;

    private static final class Net {
        private final GenericRecord row;
        private long diff;

        private Net(GenericRecord row) {
            this.row = row;
        }
    }

    /** Adds a change's diff to its row's sum. */
    void add(Change change) {
        GenericRecord row = change.record();
        ByteBuffer key = bytesOf(change);
        Net net = ofSchema.get(key);
        if (net == null) {
            net = new Net(row);
            ofSchema.put(key, net);
        }
        net.diff += change.diff();
    }

    /** The change's row's Avro binary, and the sums of its schema made current. */
    private ByteBuffer bytesOf(Change change) {
        Schema schema = change.record().getSchema();
        if (!schema.equals(this.schema)) {
            this.schema = schema;
            ofSchema = sums.computeIfAbsent(schema, s -> new HashMap<>());
        }
        return change.rowBytes();
    }

    /** The net count per row, by its Avro JSON rendering, rows with 0 left out. */
    Map<String, Long> net() {
        Map<String, Long> net = new HashMap<>();
        sums.values().forEach(rows -> rows.values().forEach(n -> {
            if (n.diff != 0) {
                net.merge(GenericData.get().toString(n.row), n.diff, Long::sum);
            }
        }));
        net.values().removeIf(n -> n == 0);
        return net;
    }
}
