package io.mvsink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class DepartedTransactionsTest {
    private static final String APP = "orders-sink";
    private static final String LIVE = "11111111-1111-1111-1111-111111111111";
    private static final String KILLED = "22222222-2222-2222-2222-222222222222";

    private static MemberDescription thread(String process, int index, boolean withPartitions) {
        Set<TopicPartition> partitions = withPartitions ? Set.of(new TopicPartition("corrections", index)) : Set.of();
        return new MemberDescription("member-" + process + "-" + index,
            APP + "-" + process + "-StreamThread-" + index + "-consumer", "/127.0.0.1", new MemberAssignment(partitions));
    }

    @Test
    void shouldFenceTheOpenTransactionsOfAProcessThatLeftTheGroup() {
        assertEquals(Set.of(APP + "-" + KILLED + "-1", APP + "-" + KILLED + "-2"),
            DepartedTransactions.departed(APP, List.of(thread(LIVE, 1, true), thread(LIVE, 2, true)),
                List.of(APP + "-" + LIVE + "-1", APP + "-" + KILLED + "-1", APP + "-" + KILLED + "-2")));
    }

    @Test
    void shouldFenceAThreadWithoutPartitionsOfARestartedProcess() {
        // restarted on its state dir: same process id, but its thread 2 got no task and never fenced its predecessor
        assertEquals(Set.of(APP + "-" + LIVE + "-2"),
            DepartedTransactions.departed(APP, List.of(thread(LIVE, 1, true), thread(LIVE, 2, false)),
                List.of(APP + "-" + LIVE + "-1", APP + "-" + LIVE + "-2")));
    }

    @Test
    void shouldFenceNothingWhenAMemberIsNotAStreamThreadOfTheApp() {
        MemberDescription custom = new MemberDescription("m", "my-client-StreamThread-1-consumer-x", "/h",
            new MemberAssignment(Set.of()));
        assertEquals(Set.of(), DepartedTransactions.departed(APP, List.of(thread(LIVE, 1, true), custom),
            List.of(APP + "-" + KILLED + "-1")));
    }

    @Test
    void shouldIgnoreTransactionalIdsOfAnotherForm() {
        assertEquals(Set.of(), DepartedTransactions.departed(APP, List.of(thread(LIVE, 1, true)),
            List.of("other-app-" + KILLED + "-1", APP + "-" + KILLED + "-producer", APP + "-1x")));
    }
}
