package io.mvsink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.local.LocalStack;
import io.mvsink.local.LocalStackExtension;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23: the appender's task gets a stream thread of its own. mvsink starts one stream thread
 * more than {@code num.stream.threads}, so that with as many threads as partitions each task has a
 * thread: a stream thread polls only after it processed what it fetched, and the appender's, which
 * also ran a corrections task, saw each committed report a poll or two late behind a backlog. Seen
 * as an operator sees it, in the group's assignment ({@code Admin.describeConsumerGroups}, what
 * {@code kafka-consumer-groups.sh --describe --members} prints).
 */
@ExtendWith(LocalStackExtension.class)
class AppenderThreadIT {

    @Test
    void shouldGiveTheAppendersTaskAStreamThreadOfItsOwn(LocalStack stack) throws Exception {
        try (SinkHarness sink = new SinkHarness(stack, 2, new Properties())) {
            sink.startApp(2);
            String group = sink.config(0).applicationId();
            try (Admin admin = Admin.create(sink.clientProps())) {
                ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group))
                    .describedGroups().get(group).get(30, TimeUnit.SECONDS);
                List<Set<TopicPartition>> assignments = described.members().stream()
                    .map(MemberDescription::assignment).map(a -> a.topicPartitions()).toList();

                assertEquals(3, assignments.size(), "two stream threads and one for the appender: " + assignments);
                TopicPartition reports = new TopicPartition(group + "-reports", 0);
                Set<TopicPartition> appenders = assignments.stream().filter(a -> a.contains(reports)).findFirst()
                    .orElseThrow(() -> new AssertionError("nobody reads " + reports + ": " + assignments));
                assertEquals(Set.of(reports), appenders, "the appender's thread runs no corrections task");
                assertEquals(Set.of(0, 1), assignments.stream().flatMap(Set::stream)
                    .filter(p -> p.topic().equals(sink.correctionsTopic())).map(TopicPartition::partition)
                    .collect(Collectors.toSet()), "every corrections partition is read");
            }
        }
    }
}
