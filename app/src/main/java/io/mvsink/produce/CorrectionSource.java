package io.mvsink.produce;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/** A seeded stream of corrections of one row schema that keeps its own model (row to net count). */
public interface CorrectionSource {
    /** The schema of every row it makes. */
    Schema rowSchema();

    /** The next correction; the model already counts it. */
    Workload.Correction next();

    /** Net count per row of everything generated so far (rows with count 0 left out). */
    Map<GenericRecord, Long> model();
}
