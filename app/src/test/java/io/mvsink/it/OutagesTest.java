package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutagesTest {
    @Test
    void shouldTakeOutOfEachStallTheTimeNoChildRan() {
        Outages outages = Outages.of(List.of(new Outages.Window(0, 10_000), new Outages.Window(14_000, 30_000)));

        assertEquals(4_000, outages.outageMs(5_000, 20_000));
        assertEquals(11_000, outages.longestStallOutside(List.of(0L, 1_000L, 16_000L, 20_000L)));
    }

    @Test
    void shouldReadWhenAChildFirstRanFromItsIsoDatedLog() {
        List<String> log = List.of(
            "2026-05-04T09:12:40.118+02:00 [main] INFO  mvsink shard orders - starting",
            "2026-05-04T09:12:44.250+02:00 [app-StreamThread-1] INFO  KafkaStreams - stream-client [app] "
                + "State transition from REBALANCING to RUNNING",
            "2026-05-04T09:12:45.000+02:00 [app-StreamThread-1] INFO  KafkaStreams - stream-client [app] "
                + "State transition from REBALANCING to RUNNING");

        assertEquals(Optional.of(OffsetDateTime.parse("2026-05-04T07:12:44.250Z").toInstant().toEpochMilli()),
            Outages.firstRunning(log));
    }
}
