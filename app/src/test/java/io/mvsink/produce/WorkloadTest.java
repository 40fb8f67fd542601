package io.mvsink.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    @Test
    void shouldKeepAModelThatIsTheSumOfItsCorrectionsAndNeverNegative() {
        Workload workload = new Workload(5, 50, 0.45);
        Map<GenericRecord, Long> sums = new HashMap<>();
        int retractions = 0;
        for (int i = 0; i < 50_000; i++) {
            Workload.Correction c = workload.next();
            long count = sums.merge(c.row(), c.diff(), Long::sum);
            assertTrue(count >= 0, "a retraction took back a row that was not present: " + c);
            retractions += c.diff() < 0 ? 1 : 0;
        }
        sums.values().removeIf(count -> count == 0);
        assertEquals(sums, workload.model());
        assertTrue(retractions > 10_000);
    }
}
