package io.mvsink.topology;

import io.mvsink.protocol.PartitionCountProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;

/**
 * Asks the cluster for the topic's partitions ({@code describeTopics}: one metadata round trip,
 * bounded by {@code timeout} so that the stream thread calling it never hangs). The admin client
 * is the caller's: it creates and closes it.
 */
public final class AdminPartitionCountProbe implements PartitionCountProbe {
    private final Admin admin;
    private final String topic;
    private final Duration timeout;

    public AdminPartitionCountProbe(Admin admin, String topic, Duration timeout) {
        this.admin = admin;
        this.topic = topic;
        this.timeout = timeout;
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public CompletableFuture<Integer> partitionsAsync() {
        DescribeTopicsOptions options = new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis());
        return admin.describeTopics(List.of(topic), options).allTopicNames().toCompletionStage().toCompletableFuture()
            .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .handle((topics, failure) -> {
                if (failure == null) {
                    return topics.get(topic).partitions().size();
                }
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
                throw cause instanceof TimeoutException
                    ? new TopicException("no answer describing topic '" + topic + "' within " + timeout, cause)
                    : new TopicException("cannot describe topic '" + topic + "': " + cause, cause);
            });
    }

    @Override
    public int partitions() {
        DescribeTopicsOptions options = new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis());
        try {
            return admin.describeTopics(List.of(topic), options).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size();
        } catch (ExecutionException e) {
            throw new TopicException("cannot describe topic '" + topic + "': " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new TopicException("no answer describing topic '" + topic + "' within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicException("interrupted describing topic '" + topic + "'", e);
        }
    }
}
